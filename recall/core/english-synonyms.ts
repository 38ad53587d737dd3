// Everyday English, like everyday Chinese (synonyms.ts), says one thing in several words: a
// person writes "metro" and CC-CEDICT translates 地铁 as "subway"; writes "grandmother" where the
// dictionary says "grandma"; asks about a "film" they wrote down as a "movie". British and
// American usage and the home and formal registers differ most. This small hand-made table of
// the words of a personal life links them: family, work, health, home, getting about, devices,
// media, food, travel, pets, study. Written from common usage, not from any test set; each line
// is a set of words a person uses for the same thing, compared as the tokenizer stems them.
//
// The query side only (query.ts): an English word of the message, or an English translation of a
// Chinese word, also searches its synonyms, below the word itself.

import { stemEnglish } from './stem.ts'
import { synonymTable } from './synonyms.ts'

const GROUPS: readonly (readonly string[])[] = [
  // family
  ['mum', 'mom', 'mother', 'mummy', 'mommy'],
  ['dad', 'father', 'daddy', 'papa'],
  ['grandma', 'grandmother', 'granny', 'nana', 'gran'],
  ['grandpa', 'grandfather', 'granddad', 'grandad'],
  ['kid', 'child'],
  ['husband', 'hubby'],
  ['brother', 'bro'],
  ['sister', 'sis'],
  ['birthday', 'bday'],
  ['boyfriend', 'partner'],
  ['girlfriend', 'partner'],
  // work
  ['boss', 'manager', 'supervisor'],
  ['colleague', 'coworker'],
  ['job', 'work', 'career'],
  ['salary', 'pay', 'wage', 'income'],
  ['quit', 'resign'],
  ['company', 'employer', 'firm'],
  // health
  ['doctor', 'physician'],
  ['therapist', 'psychologist', 'counsellor', 'counselor', 'psychiatrist'],
  ['therapy', 'counselling', 'counseling'],
  ['medicine', 'medication', 'meds', 'pill'],
  ['dose', 'dosage'],
  // a kind beside each of its everyday instances, never the instances beside each other
  ['antibiotic', 'penicillin'],
  ['antibiotic', 'amoxicillin'],
  ['antibiotic', 'cephalosporin'],
  ['respiratory', 'asthma'],
  ['respiratory', 'bronchitis'],
  ['respiratory', 'sinusitis'],
  ['sick', 'ill', 'unwell'],
  ['flu', 'influenza'],
  ['checkup', 'physical'],
  ['hospital', 'clinic'],
  ['injury', 'hurt', 'injured'],
  // home and money
  ['apartment', 'flat'],
  ['floor', 'storey'],
  ['rent', 'rental'],
  ['sofa', 'couch'],
  ['fridge', 'refrigerator'],
  ['cost', 'price'],
  ['money', 'cash'],
  // getting about
  ['subway', 'metro', 'underground', 'tube'],
  ['car', 'vehicle'],
  ['bike', 'bicycle'],
  ['taxi', 'cab'],
  ['plane', 'flight', 'airplane', 'aeroplane'],
  ['commute', 'commuting'],
  // devices and media
  ['phone', 'mobile', 'cellphone', 'smartphone'],
  ['laptop', 'notebook', 'computer'],
  ['movie', 'film'],
  ['tv', 'television', 'telly'],
  ['show', 'series', 'programme', 'program'],
  ['song', 'tune', 'track'],
  // food
  ['dinner', 'supper'],
  ['sweets', 'candy'],
  ['cookie', 'biscuit'],
  ['restaurant', 'diner'],
  ['seafood', 'shellfish'],
  // travel, pets, study, mood
  ['vacation', 'holiday'],
  ['trip', 'journey'],
  ['cat', 'kitty', 'kitten'],
  ['dog', 'puppy', 'pup'],
  ['turtle', 'tortoise', 'terrapin'],
  ['rabbit', 'bunny'],
  ['university', 'college', 'uni'],
  ['undergraduate', 'undergrad'],
  ['photo', 'picture', 'pic'],
  ['exam', 'test'],
  ['course', 'class'],
  ['climb', 'boulder'],
  ['summit', 'peak', 'top'],
  ['sunrise', 'dawn', 'daybreak'],
  // how often
  ['month', 'monthly'],
  ['week', 'weekly'],
  ['year', 'yearly', 'annual'],
  ['anxious', 'nervous', 'worried', 'stressed'],
  ['tired', 'exhausted'],
]

const TABLE = synonymTable(GROUPS.map((group) => group.map(stemEnglish)))

/** The other words (stemmed) of the groups an English stem belongs to, in table order; [] when it is in none. */
export function englishSynonyms(stem: string): readonly string[] {
  return TABLE.get(stem) ?? []
}

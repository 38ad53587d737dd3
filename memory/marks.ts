/** The door to the ownership marks (which entries the person wrote or confirmed) and the whale inbox's record of lines already taken (docs/decisions/281). */
export { isForgedClaim, isPersonBase, migrateMarks, ownerOf, changeMarks, claimsPerson, readMarksSync, MARKS_REL, type PersonMarks } from './person-marks.ts'
export { readInboxMarksSync, recordInboxLines } from './inbox-marks.ts'

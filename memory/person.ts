/**
 * The door to what the person decides about the store: the settings (with the voice keys and
 * the night's time), the volumes and the persona A/B review (docs/decisions/281).
 */
export {
  ANCHOR_KEYS,
  NIGHT_TIME,
  MAX_SCHEDULED_SESSIONS,
  NICKNAME_MAX,
  VOICE_SETTING_KEYS,
  voiceSettingProblem,
  writeVoiceSetting,
  parseSettingsText,
  applySettingsPatch,
  type AnchorKey,
  type VoiceSettingKey,
} from './settings.ts'
export { readVolumes, ensureVolumePersonaHash, openVolume, personaFingerprint, volumeDrift, CONFIRM_WORD, type Volume, type PersonaSource } from './volumes.ts'
export { abReviewOf, readReportMark, reportMarkLine, type AbReview } from './ab-review.ts'

/** Files a person owns are private: 0600 files, 0700 folders (set with chmod/fchmod, so the umask has no say). */
export const FILE_MODE = 0o600
export const DIR_MODE = 0o700

/** A refusal of the build: names the file and says what to do; nothing was written. */
export class BuildError extends Error {
  readonly file: string
  constructor(file: string, message: string) {
    super(`${file}: ${message}`)
    this.file = file
  }
}

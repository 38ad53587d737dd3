/**
 * A value read once for each of DSH's assembly contexts (decision 054): the variables, the
 * rails and the pass that ask within one assembly see one reading; the next assembly reads
 * again. Asked without an assembly, it reads now and keeps nothing.
 */
export class PerAssembly<T> {
  private readonly kept = new WeakMap<object, T>()

  get(assembly: object | undefined, read: () => T): T {
    if (assembly === undefined) return read()
    const known = this.kept.get(assembly)
    if (known !== undefined) return known
    const value = read()
    this.kept.set(assembly, value)
    return value
  }
}

import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { expandBraces, readProgramText, readShellCommand, RUNTIME_PART, type PathRef } from './shell.ts'

const env = { home: '/home/u', vars: { HOME: '/home/u', DSH_HOME: '/home/u/.dsh' } }
const STORE = '/home/u/.dsh/cyrene-philia093-0'
const read = (command: string, cwd: string | undefined = '/work/proj') => readShellCommand(command, cwd, env)
const abs = (refs: PathRef[]) => refs.flatMap((r) => (r.abs === undefined ? [] : [r.abs]))

describe('the shell reader: what a command would change', () => {
  it.each([
    ['echo x > 元/settings.json', '/work/proj/元/settings.json'],
    ['echo x >> "$DSH_HOME/cyrene-philia093-0/元/settings.json"', `${STORE}/元/settings.json`],
    ['echo x >| ${DSH_HOME}/cyrene-philia093-0/元/a', `${STORE}/元/a`],
    ['printf x &> ~/.dsh/cyrene-philia093-0/元/a', `${STORE}/元/a`],
    ['cat a 2> ~/.dsh/cyrene-philia093-0/元/err', `${STORE}/元/err`],
    ['exec 3<> ~/.dsh/cyrene-philia093-0/元/fd', `${STORE}/元/fd`],
    ['echo hi | tee -a "/home/u/.dsh/cyrene-philia093-0/元/a b.json"', `${STORE}/元/a b.json`],
    ["sed -i 's/a/b/' /home/u/.dsh/cyrene-philia093-0/元/settings.json", `${STORE}/元/settings.json`],
    ["sed -i.bak -e 's/a/b/' ~/.dsh/cyrene-philia093-0/元/x", `${STORE}/元/x`],
    ["perl -pi -e 's/a/b/' ~/.dsh/cyrene-philia093-0/元/x", `${STORE}/元/x`],
    ['mv ~/.dsh/cyrene-philia093-0/元/settings.json /tmp/s', `${STORE}/元/settings.json`],
    ['mv /tmp/s ~/.dsh/cyrene-philia093-0/元/settings.json', `${STORE}/元/settings.json`],
    ['mv -t ~/.dsh/cyrene-philia093-0/元 /tmp/s', `${STORE}/元`],
    ['cp /tmp/s ~/.dsh/cyrene-philia093-0/元/', `${STORE}/元/`],
    ['cp -t ~/.dsh/cyrene-philia093-0/元 /tmp/s /tmp/t', `${STORE}/元`],
    ['rm -rf ~/.dsh', '/home/u/.dsh'],
    ['rm -- -weird ~/.dsh/cyrene-philia093-0/元/x', `${STORE}/元/x`],
    ['ln -s /tmp/evil ~/.dsh/cyrene-philia093-0/元/link', `${STORE}/元/link`],
    ['ln ~/.dsh/cyrene-philia093-0/元/settings.json /tmp/alias', `${STORE}/元/settings.json`],
    ['touch ~/.dsh/cyrene-philia093-0/元/new', `${STORE}/元/new`],
    ['chmod 777 ~/.dsh/cyrene-philia093-0/元', `${STORE}/元`],
    ['truncate -s 0 ~/.dsh/cyrene-philia093-0/元/settings.json', `${STORE}/元/settings.json`],
    ['dd if=/dev/zero of=/home/u/.dsh/cyrene-philia093-0/元/x bs=1 count=1', `${STORE}/元/x`],
    ['sort -o ~/.dsh/cyrene-philia093-0/元/x a', `${STORE}/元/x`],
    ['curl -o ~/.dsh/cyrene-philia093-0/元/x https://example.com', `${STORE}/元/x`],
    ['find ~/.dsh/cyrene-philia093-0/元 -name "*.json" -delete', `${STORE}/元`],
    ['find ~/.dsh -type f -exec rm {} +', '/home/u/.dsh'],
    ['sudo -u me rm ~/.dsh/cyrene-philia093-0/元/x', `${STORE}/元/x`],
    ['env FOO=1 nice -n 5 rm ~/.dsh/cyrene-philia093-0/元/x', `${STORE}/元/x`],
    ['timeout 5 rm ~/.dsh/cyrene-philia093-0/元/x', `${STORE}/元/x`],
    ['true && rm ~/.dsh/cyrene-philia093-0/元/x || echo no', `${STORE}/元/x`],
    ['(rm ~/.dsh/cyrene-philia093-0/元/x)', `${STORE}/元/x`],
    ['{ rm ~/.dsh/cyrene-philia093-0/元/x; }', `${STORE}/元/x`],
    ['if true; then rm ~/.dsh/cyrene-philia093-0/元/x; fi', `${STORE}/元/x`],
    ['echo $(rm ~/.dsh/cyrene-philia093-0/元/x)', `${STORE}/元/x`],
    ['echo `rm ~/.dsh/cyrene-philia093-0/元/x`', `${STORE}/元/x`],
    ['diff <(rm ~/.dsh/cyrene-philia093-0/元/x) b', `${STORE}/元/x`],
    ["bash -c 'rm ~/.dsh/cyrene-philia093-0/元/x'", `${STORE}/元/x`],
    ['sh -lc "rm \'/home/u/.dsh/cyrene-philia093-0/元/x\'"', `${STORE}/元/x`],
    ["eval 'rm ~/.dsh/cyrene-philia093-0/元/x'", `${STORE}/元/x`],
    ['bash <<EOF\nrm ~/.dsh/cyrene-philia093-0/元/x\nEOF', `${STORE}/元/x`],
    ['bash <<< "rm ~/.dsh/cyrene-philia093-0/元/x"', `${STORE}/元/x`],
    ['D=~/.dsh/cyrene-philia093-0; echo > $D/元/x', `${STORE}/元/x`],
    ['export D=~/.dsh/cyrene-philia093-0 && rm "$D/元/x"', `${STORE}/元/x`],
    ['tar -xzf b.tgz -C ~/.dsh/cyrene-philia093-0/元', `${STORE}/元/.cyrene-guard-new-entry`],
    ['tar czf ~/.dsh/cyrene-philia093-0/元/b.tgz src', `${STORE}/元/b.tgz`],
    ['git -C ~/.dsh/cyrene-philia093-0 checkout -- 元/settings.json', `/work/proj/元/settings.json`],
    ['rm a\\ b/元\\ x', '/work/proj/a b/元 x'],
    ['rm ~/.dsh/cyrene-philia093-0/{余页,元}/x', `${STORE}/元/x`],
    ['rm ~/.dsh/cyrene-philia093-0/岁月涟漪/日档/2026/11/2026-11-{27..29}.md', `${STORE}/岁月涟漪/日档/2026/11/2026-11-29.md`],
    ['cp -l ~/.dsh/cyrene-philia093-0/元/settings.json /tmp/alias', `${STORE}/元/settings.json`],
    ['rsync -a --remove-source-files ~/.dsh/cyrene-philia093-0/元/ /tmp/b', `${STORE}/元/`],
  ])('%s', (command, expected) => {
    expect(abs(read(command).writes)).toContain(expected)
  })

  it('cd into the store and then `&&`: only the new folder (what follows runs only when cd worked)', () => {
    const r = read('cd ~/.dsh/cyrene-philia093-0 && echo x > 元/settings.json')
    expect(abs(r.writes)).toEqual([`${STORE}/元/settings.json`])
  })

  it('cd into the store and then `;`: both the old and the new folder are possible', () => {
    const r = read('cd ~/.dsh/cyrene-philia093-0; echo x > 元/settings.json')
    expect(abs(r.writes)).toEqual(['/work/proj/元/settings.json', `${STORE}/元/settings.json`])
  })

  it('a path a command creates inside a folder carries no NUL (the file system would throw on it)', () => {
    for (const command of ['git init -q scratch', 'tar xf a.tar -C out', 'git pull', 'unzip a.zip -d out', 'curl -O https://x/y', 'wget https://x/y'])
      for (const w of abs(read(command).writes)) expect(w.includes('\u0000'), `${command}: ${w}`).toBe(false)
  })

  it('cd through .. chains keeps the .. for the guard to resolve physically', () => {
    const r = read('cd ../../home/u/.dsh/./cyrene-philia093-0/岁月涟漪 && rm ../元/settings.json', '/work/proj')
    expect(abs(r.writes)).toContain('/work/proj/../../home/u/.dsh/./cyrene-philia093-0/岁月涟漪/../元/settings.json')
  })

  it('cd into a folder named at run time keeps the literal part for the name check', () => {
    const r = read('cd "$X/元" && rm settings.json')
    expect(r.writes.map((w) => w.text)).toContain(`${RUNTIME_PART}/元/settings.json`)
  })

  it('a persistent shell (folder unknown): relative paths keep only their text', () => {
    const r = readShellCommand('rm 元/settings.json', undefined, env)
    expect(r.writes).toEqual([{ text: `${RUNTIME_PART}/元/settings.json` }])
  })

  it('reads and harmless redirections change nothing', () => {
    for (const c of [
      'cat ~/.dsh/cyrene-philia093-0/元/settings.json',
      'grep -r base ~/.dsh/cyrene-philia093-0 2>/dev/null',
      'ls -la ~/.dsh/cyrene-philia093-0/元 | head -5',
      'cat ~/.dsh/cyrene-philia093-0/元/settings.json 2>&1',
      "sed -n '1,5p' ~/.dsh/cyrene-philia093-0/元/settings.json",
      'find ~/.dsh/cyrene-philia093-0 -name "*.md" -exec cat {} \\;',
      'cp ~/.dsh/cyrene-philia093-0/元/settings.json /tmp/copy.json',
      'rsync -rlptgoD ~/.dsh/cyrene-philia093-0/ /backup/store/',
      "echo '{a,b}' > /tmp/out",
      'git -C ~/.dsh/cyrene-philia093-0 log',
      "awk '{print $1}' ~/.dsh/cyrene-philia093-0/元/settings.json",
      "cat <<'EOF'\nrm -rf ~/.dsh\nEOF",
      '# rm -rf ~/.dsh',
      "echo 'rm -rf ~/.dsh'",
    ]) {
      const r = read(c)
      expect(
        abs(r.writes).filter((p) => p.includes('.dsh')),
        c,
      ).toEqual([])
      expect(r.unsureWhy, c).toEqual([])
    }
  })

  it('interpreters, unknown programs and xargs are unsure and list what they name', () => {
    const py = read(`python3 -c "open('${STORE}/元/settings.json','w').write('x')"`)
    expect(py.unsureWhy).toEqual(['python3'])
    expect(abs(py.unsureMentions)).toContain(`${STORE}/元/settings.json`)
    const x = read('find ~/.dsh -name "*.json" | xargs rm -f')
    expect(x.unsureWhy[0]).toMatch(/^xargs rm/)
    expect(abs(x.unsureMentions)).toContain('/home/u/.dsh')
    const unknown = read('./fix-it.sh ~/.dsh/cyrene-philia093-0/元/settings.json')
    expect(unknown.unsureWhy[0]).toMatch(/not a command the guard knows/)
    expect(abs(unknown.unsureMentions)).toContain(`${STORE}/元/settings.json`)
    const piped = read("echo 'rm x' | bash")
    expect(piped.unsureWhy[0]).toMatch(/pipe/)
    const awk = read(`awk '{print > "${STORE}/元/x"}' a`)
    expect(abs(awk.unsureMentions)).toContain(`${STORE}/元/x`)
  })

  it('a write to a path known only at run time still lists what the whole line names', () => {
    const r = read('for f in ~/.dsh/cyrene-philia093-0/元/*; do rm "$f"; done')
    expect(r.writes.some((w) => w.abs === undefined)).toBe(true)
    expect(r.scriptMentions.some((m) => m.abs === `${STORE}/元/*` && m.glob === true)).toBe(true)
  })

  it('brace expansion: lists, number and letter ranges, nested, quoted braces left alone', () => {
    expect(expandBraces('a/{b,c}/d')).toEqual(['a/b/d', 'a/c/d'])
    expect(expandBraces('{08..10}.md')).toEqual(['08.md', '09.md', '10.md'])
    expect(expandBraces('{a..c}')).toEqual(['a', 'b', 'c'])
    expect(new Set(expandBraces('{x,{y,z}}'))).toEqual(new Set(['x', 'y', 'z']))
    expect(expandBraces('{single}')).toEqual(['{single}'])
    expect(abs(read('rm "{元,b}"').writes)).toEqual(['/work/proj/{元,b}'])
  })

  it('program text (run_code, workflow): every path-like piece is an unsure mention', () => {
    const r = readProgramText(`await fs.writeFile(process.env.HOME + '/.dsh/cyrene-philia093-0/元/x', '1')`, '/work/proj', env, 'a run_code program')
    expect(r.unsureWhy).toEqual(['a run_code program'])
    expect(r.unsureMentions.map((m) => m.text).some((t) => t.includes('cyrene-philia093-0'))).toBe(true)
  })
})

describe('the shell reader never fails a call by itself', () => {
  it('any text from shell punctuation, quotes, expansions and store names: a reading, no throw', () => {
    const pieces = [
      'rm ',
      'cd ',
      ' ',
      "'",
      '"',
      '\\',
      '$',
      '(',
      ')',
      '{',
      '}',
      '`',
      '<<',
      'EOF',
      '\n',
      '>',
      '|',
      '&',
      ';',
      '~',
      '*',
      '元/',
      '..',
      '$(',
      '${X',
      'bash -c ',
      'for f in ',
      'cyrene-philia093-0',
    ]
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...pieces), { maxLength: 40 }), (parts) => {
        const r = readShellCommand(parts.join(''), '/work/proj', env)
        expect(Array.isArray(r.writes)).toBe(true)
      }),
      { numRuns: 500 },
    )
  })
})

describe('the shell reader: the cyrene command line writes as the person', () => {
  it.each([
    'cyrene memory write "我其实很讨厌猫" --base',
    'cyrene memory anchor write user 对方从不喜欢被提醒 --core',
    'npx cyrene settings set nickname 主人',
    'npm run cyrene -- memory import --jsonl notes.jsonl',
    'node ./node_modules/dsh-cyrene-philia093-0/bin/cyrene.js restore 2026-11-29',
    'cd /tmp && cyrene backup',
    'cyrene memory export --out ~/dump.jsonl',
    'cyrene whale inbox accept 3',
    'cyrene volume new --reason x --confirm new-volume',
  ])('%s → acts as the person', (command) => {
    expect(read(command).asPerson).toHaveLength(1)
  })

  it.each([
    'cyrene memory list',
    'cyrene memory search 猫 --json',
    'cyrene doctor --verbose',
    'cyrene memory',
    'cyrene volume',
    'cyrene --help',
    'npx cyrene memory show 20261130T1',
  ])('%s → only reads', (command) => {
    expect(read(command).asPerson).toEqual([])
  })
})

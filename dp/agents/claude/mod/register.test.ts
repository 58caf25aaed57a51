// The mod's own tests, run by `claude plugin test` with the engine's `$`.
// The hooks a test registers sit beneath the plugin: they play the model
// (`turn.step`), the session's tools (`tool.list`) and dp's snapshot (`fs.read`).
import { expect, test } from 'claude-code/testing'
import type { On, TurnStepChunk } from 'claude-code'
import { afterCall, asksDp, batchAsksDp, commandWords } from './register'

const SNAPSHOT = JSON.stringify({
  version: 1,
  aliases: [
    { name: 'read_file', tool: 'Read', args: { path: 'file_path' }, message: '' },
    { name: 'notebook_run', tool: 'NoSuchTool', args: {}, message: '' },
  ],
})

function world(on: On, chunks: TurnStepChunk[], snapshot: string | null) {
  on('fs.read', async ($, e, next) => {
    if (e.path.endsWith('aliases.json')) return snapshot === null ? { deny: 'missing' } : { value: snapshot }
    return { deny: 'missing' }
  })
  on('env.get', async ($, e) => ({ value: e.name === 'HOME' ? '/home/someone' : undefined }))
  on('tool.list', async () => ({ value: [{ name: 'Read', description: 'Reads a file', mcp: false }] }))
  on('turn.step', async function* () {
    for (const chunk of chunks) yield chunk
    return { turnId: 't', index: 0, answer: '', toolUses: [], stopReason: 'tool_use' as const, usage: null }
  })
}

async function streamed($: { turn: { step: (e: never) => AsyncIterable<TurnStepChunk> } }) {
  const seen: TurnStepChunk[] = []
  for await (const chunk of $.turn.step({ turnId: 't', index: 0, model: 'm', messageCount: 1 } as never)) {
    seen.push(chunk)
  }
  return seen
}

const CALL: TurnStepChunk[] = [
  { kind: 'tool', index: 0, id: 'toolu_1', name: 'read_file' },
  { kind: 'input', index: 0, json: '{"pa' },
  { kind: 'input', index: 0, json: 'th": "a.txt"}' },
]

test('renames the tool chunk of an aliased name and passes the arguments untouched', async ($, on) => {
  world(on, CALL, SNAPSHOT)
  const seen = await streamed($ as never)
  expect(seen.map(c => (c.kind === 'tool' ? c.name : c.kind === 'input' ? c.json : c.kind))).toEqual(
    ['Read', '{"pa', 'th": "a.txt"}'])
})

test('leaves a rule whose tool the session lacks alone', async ($, on) => {
  world(on, [{ kind: 'tool', index: 0, id: 'toolu_2', name: 'notebook_run' }], SNAPSHOT)
  const seen = await streamed($ as never)
  expect(seen[0]).toEqual({ kind: 'tool', index: 0, id: 'toolu_2', name: 'notebook_run' })
})

test('without a snapshot every chunk passes as the model wrote it', async ($, on) => {
  world(on, CALL, null)
  const seen = await streamed($ as never)
  expect(seen).toEqual(CALL)
})

// A trusted repository's alias: applied inside it while its rule file reads as trusted.
function projectSnapshot(root: string, text: string) {
  return JSON.stringify({
    version: 1,
    aliases: [],
    projects: [{ root, files: [{ path: `${root}/.dp/rules.toml`, text }],
      aliases: [{ name: 'load_file', tool: 'Read', args: { path: 'file_path' }, message: '' }] }],
  })
}

function projectWorld(on: On, snapshot: string, fileText: string) {
  on('session.cwd', async () => ({ value: '/work/repo/src' }))
  on('fs.read', async ($, e) => {
    if (e.path.endsWith('aliases.json')) return { value: snapshot }
    if (e.path.endsWith('/.dp/rules.toml')) return { value: fileText }
    return { deny: 'missing' }
  })
  on('env.get', async ($, e) => ({ value: e.name === 'HOME' ? '/home/someone' : undefined }))
  on('tool.list', async () => ({ value: [{ name: 'Read', description: 'Reads a file', mcp: false }] }))
  on('turn.step', async function* () {
    yield { kind: 'tool' as const, index: 0, id: 'toolu_p', name: 'load_file' }
    return { turnId: 't', index: 0, answer: '', toolUses: [], stopReason: 'tool_use' as const, usage: null }
  })
}

test('a trusted project alias applies in a session inside the repository', async ($, on) => {
  projectWorld(on, projectSnapshot('/work/repo', 'trusted text'), 'trusted text')
  const seen = await streamed($ as never)
  expect(seen[0]).toEqual({ kind: 'tool', index: 0, id: 'toolu_p', name: 'Read' })
})

test('a project file changed since it was trusted is inert', async ($, on) => {
  projectWorld(on, projectSnapshot('/work/repo', 'trusted text'), 'trusted text, then a pull')
  const seen = await streamed($ as never)
  expect(seen[0]).toEqual({ kind: 'tool', index: 0, id: 'toolu_p', name: 'load_file' })
})

test('a project alias does not apply outside its repository', async ($, on) => {
  projectWorld(on, projectSnapshot('/work/repository', 'trusted text'), 'trusted text')
  const seen = await streamed($ as never)
  expect(seen[0]).toEqual({ kind: 'tool', index: 0, id: 'toolu_p', name: 'load_file' })
})

// The front door for Bash: the hook's first word scan, and only WHETHER to ask dp.
const DOOR = { words: new Set(['grep', 'npm', '/opt/bin/tool', 'python']), needs: new Map([['python', ' -m']]),
  everything: false, mentions: ['dp'] }

test('reads the words as the hook does: basenames, whole paths, quoted text dropped', async () => {
  expect([...commandWords('ls -la | /usr/bin/grep -n "grep x" && echo \'npm\'')].sort()).toEqual(
    ['-la', '-n', '/usr/bin/grep', 'echo', 'grep', 'ls'])
  expect([...commandWords('echo "$(npm ls)"')]).toContain('npm')
})

test('asks dp only for a command with a word a rule or paving can act on', async () => {
  for (const command of ['ls', 'echo hi', 'cat notes.txt', 'git status', 'pwd', "echo 'grep'"]) {
    expect(asksDp(command, DOOR)).toBe(false)
  }
  for (const command of ['grep -rn x .', 'cd a && npm install', '/opt/bin/tool x', 'sudo /bin/grep x']) {
    expect(asksDp(command, DOOR)).toBe(true)
  }
})

test('judges substitutions, here-docs and eval by their words, as the hook gate does', async () => {
  // pave-check answers none of these: no word of theirs has a rule or paving
  for (const command of ['ls $(cat list)', 'ls `pwd`', 'cat <<EOF\nx\nEOF', 'eval "$X"', '. ./env.sh', 'find . -name x']) {
    expect(asksDp(command, DOOR)).toBe(false)
  }
  for (const command of ['ls $(grep -l x .)', 'echo `npm ls`', 'cat <<EOF | grep x\ny\nEOF', 'f() { grep -n "$1" *.py; }']) {
    expect(asksDp(command, DOOR)).toBe(true)
  }
})

test('a paving word that needs more text counts only with it', async () => {
  expect(asksDp('python -c "print(1)"', DOOR)).toBe(false)
  expect(asksDp('python -m pytest -q', DOOR)).toBe(true)
  expect(asksDp('python -c x', { ...DOOR, needs: new Map() })).toBe(true)
})

test('sends what the two scans could read apart, a stale snapshot and a rule on every call to dp', async () => {
  expect(asksDp('ls caf\u00e9', DOOR)).toBe(true)
  expect(asksDp('ls\rx', DOOR)).toBe(true)
  expect(asksDp('ls', null)).toBe(true)
  expect(asksDp('ls', { words: new Set<string>(), needs: new Map(), everything: true, mentions: [] })).toBe(true)
})

test("dp's own name sends a command to dp wherever it stands, quoted too", async () => {
  for (const command of ['dp trust', "bash -c 'dp trust'", 'cd a && python -m dp paving on', 'x=$(dp init)']) {
    expect(asksDp(command, DOOR)).toBe(true)
  }
  expect(asksDp('bash -c "dp trust"', { ...DOOR, mentions: [] })).toBe(false)
})

test('asks dp after a batch only when the client refused a tool name', async () => {
  expect(batchAsksDp({ tool_calls: [{ tool_name: 'Bash', tool_response: { stdout: 'ok' } }] })).toBe(false)
  expect(batchAsksDp({ tool_calls: [{ tool_name: 'read_file',
    tool_response: '<tool_use_error>Error: No such tool available: read_file</tool_use_error>' }] })).toBe(true)
})

test('a command past the scan bound goes to dp unread; a long run of quote pairs is scanned in one pass', async () => {
  expect(asksDp(`grep x ${"''".repeat(500000)}`, DOOR)).toBe(true)
  expect(asksDp(`ls ${"''".repeat(30000)}`, DOOR)).toBe(false)
  expect(asksDp(`ls ${'"" \\\\ '.repeat(8000)}`, DOOR)).toBe(false)
})

// Capture: dp-capture only for what dp keeps of a call.
test('after a failure the next five Bash calls are held and handed over together; other calls start nothing', async () => {
  const held = new Map([['s', { left: 5, calls: [] as unknown[] }]])
  const fixed = new Set(['toolu_fixed'])
  const call = (n: number, tool = 'Bash') => ({ tool_name: tool, tool_use_id: `toolu_${n}`, tool_input: { command: `c${n}` },
    tool_response: { stdout: 'big' } })
  expect(afterCall(call(0), 'other', held, fixed)).toEqual([]) // another session: no failure there
  expect(afterCall(call(1, 'Read'), 's', held, fixed)).toEqual([]) // not Bash: never a fix dp.learn reads
  for (const n of [2, 3, 4, 5]) expect(afterCall(call(n), 's', held, fixed)).toEqual([])
  const handed = afterCall(call(6), 's', held, fixed)
  expect(handed.map(c => (c as { tool_use_id: string }).tool_use_id)).toEqual(['toolu_2', 'toolu_3', 'toolu_4', 'toolu_5', 'toolu_6'])
  expect(handed.every(c => !('tool_response' in (c as object)))).toBe(true)
  expect(afterCall(call(7), 's', held, fixed)).toEqual([]) // the window is over
  expect(afterCall({ ...call(8, 'Read'), tool_use_id: 'toolu_fixed' }, 's', held, fixed)).toHaveLength(1) // a call the mod fixed
})

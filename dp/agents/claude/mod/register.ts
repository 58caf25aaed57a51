// dp's Claude Code mod: a tool call the model names wrongly (`read_file`) runs
// as the tool a dp rule maps it to (`Read`).
//
// Why a mod: Claude Code refuses an unknown tool name before any settings hook
// runs, so dp's hooks could only tell the model afterwards. `turn.step` sees the
// model's stream before the engine resolves the name.
//
// What it does, and only this:
// * `turn.step` renames the `tool` chunk of an aliased name. Every other chunk
//   (the arguments' `input` pieces above all) passes on untouched and at once:
//   nothing is held back or rebuilt, so a failure mid-stream cannot lose the
//   model's arguments.
// * `tool.call`, registered only for the tools rules map to (`options.tools`,
//   which dp keeps in the user's settings), renames argument keys of a call
//   this mod renamed (`path` → `file_path`), adds one line the model reads
//   after the result, and drops a record of the fix where dp-capture reads it.
// * Any error leaves the stream and the call as the model wrote them; dp's
//   settings hooks (SessionStart, PostToolBatch) then correct the model.
// * A rule whose tool this session lacks is skipped.
//
// The front door for Bash (`classic.PreToolUse`, Bash only): where this mod
// loads it, not the plugin's classic Bash handler, decides whether a command
// goes to dp. It reads the command's words with the hook's own first scan
// (dp/shell/words.py `command_words`, ported below) and runs pave-check only
// when a word is one a rule, recipe, trusted project file or paving can act on
// (the snapshot's `bash.words`: the hook's own gate), or when the two scans
// could read the command apart;
// pave-check's answer is passed on as the classic hook's would be. It decides
// only WHETHER to ask dp, never what to answer. Once it is the front door it
// sets DP_MOD_FRONT_DOOR to the session's id, and the classic handler (a shell
// line in hooks.json) steps aside; anything odd, and every call goes to dp.
//
// Capture the same way (`classic.PostToolUseFailure`, `classic.PostToolUse`):
// dp-capture starts for a failed call (in line: its learned answer reaches the
// model), for the Bash calls just after a failure (the fix dp.learn learns) and
// for a call this mod fixed; the classic capture handlers step aside under the
// same variable. An ordinary success starts nothing (`dp ingest` reads its
// shapes from the transcript), and the calls after a failure go in one process.
//
// The aliases come from a snapshot dp writes atomically on every rule change
// (`<dp dir>/claude-mod/aliases.json`), with each trusted repository's own
// (`projects`, applied in a session inside that repository); the plugin's `hooks/dp-plugin.json`
// names that directory for a user-scope install, else `~/.dp` (or `$DP_DB`'s).
import type { EngineInterface, Register, TurnStepChunk } from 'claude-code'

type Alias = { name: string; tool: string; args: Record<string, string>; message: string }
type State = { dir: string; aliases: Map<string, Alias> }
type Project = { root: string; files: unknown; aliases: unknown }

// The tools `tool.call` listens on before dp has written the user's own list:
// every tool dp knows argument names of.
const KNOWN_TARGETS = ['Bash', 'Edit', 'Glob', 'Grep', 'NotebookEdit', 'Read', 'WebFetch', 'WebSearch', 'Write'] as const
const SNAPSHOT = 'aliases.json'
const MAX_ALIASES = 500

// One step's own view of the snapshot: read when the step's first tool chunk
// arrives, never per chunk.
async function loadState($: EngineInterface): Promise<State> {
  const dir = await stateDir($)
  const snapshot: unknown = JSON.parse(await $.fs.read(`${dir}/${SNAPSHOT}`))
  const aliases = new Map<string, Alias>()
  const listed = (snapshot as { aliases?: unknown }).aliases
  if (!Array.isArray(listed)) return { dir, aliases }
  const tools = new Set((await $.tool.list()).map(t => t.name))
  const project = await projectAliases($, snapshot)
  for (const entry of [...listed.slice(0, MAX_ALIASES), ...project.slice(0, MAX_ALIASES)]) {
    const alias = asAlias(entry)
    if (alias !== null && tools.has(alias.tool)) aliases.set(alias.name, alias)
  }
  return { dir, aliases }
}

// A trusted repository's aliases (`dp trust`; dp's rule layers) laid over the
// user's, in a session inside that repository only, and only while each of its
// rule files still reads exactly as the text dp trusted: a pulled or edited
// file is inert here the moment it changes, as in dp's hook. Anything odd: none.
async function projectAliases($: EngineInterface, snapshot: unknown): Promise<unknown[]> {
  try {
    const projects = (snapshot as { projects?: unknown }).projects
    if (!Array.isArray(projects)) return []
    const cwd = await $.session.cwd()
    let best: Project | undefined
    for (const project of projects as unknown[]) {
      const entry = (project ?? {}) as { root?: unknown; files?: unknown; aliases?: unknown }
      const root = entry.root
      if (typeof root !== 'string' || !(cwd === root || cwd.startsWith(`${root}/`))) continue
      if (best === undefined || root.length > best.root.length) best = { root, files: entry.files, aliases: entry.aliases }
    }
    if (best === undefined || !Array.isArray(best.files) || !Array.isArray(best.aliases)) return []
    for (const file of best.files) {
      const { path, text } = (file ?? {}) as { path?: unknown; text?: unknown }
      if (typeof path !== 'string' || typeof text !== 'string' || (await $.fs.read(path)) !== text) return []
    }
    return best.aliases
  } catch {
    return []
  }
}

async function stateDir($: EngineInterface): Promise<string> {
  try {
    const config: unknown = JSON.parse(await $.fs.read(`${$.plugin.root}/hooks/dp-plugin.json`))
    const dir = (config as { state?: unknown }).state
    if (typeof dir === 'string' && dir.startsWith('/')) return dir
  } catch {
    // no config: a project-scope plugin, which finds each person's own dp
  }
  const db = await $.env.get('DP_DB')
  if (db !== undefined && db.startsWith('/')) return `${db.slice(0, db.lastIndexOf('/'))}/claude-mod`
  return `${await $.env.get('HOME')}/.dp/claude-mod`
}

function asAlias(entry: unknown): Alias | null {
  if (typeof entry !== 'object' || entry === null) return null
  const { name, tool, args, message } = entry as Record<string, unknown>
  if (typeof name !== 'string' || typeof tool !== 'string' || name === tool) return null
  const renames: Record<string, string> = {}
  if (typeof args === 'object' && args !== null) {
    for (const [from, to] of Object.entries(args)) if (typeof to === 'string') renames[from] = to
  }
  return { name, tool, args: renames, message: typeof message === 'string' ? message : '' }
}

function renamed(chunk: TurnStepChunk, state: State, fixes: Map<string, Alias>): TurnStepChunk {
  if (chunk.kind !== 'tool') return chunk
  const alias = state.aliases.get(chunk.name)
  if (alias === undefined) return chunk
  fixes.set(chunk.id, alias)
  return { ...chunk, name: alias.tool }
}

// The call's arguments with the model's key names turned into the tool's,
// never overwriting a key the call already has.
function withToolKeys(call: Record<string, unknown>, alias: Alias): Record<string, unknown> {
  const fixed: Record<string, unknown> = {}
  for (const [key, value] of Object.entries(call)) {
    const target = alias.args[key]
    if (target !== undefined && !(target in call)) fixed[target] = value
    else fixed[key] = value
  }
  return fixed
}

function note(alias: Alias): string {
  const line = `${alias.name} is not a Claude Code tool; this call ran as ${alias.tool}. Call ${alias.tool} directly.`
  return alias.message === '' ? `dp: ${line}` : `dp: ${line} ${alias.message}`
}

// -- the front door for Bash ---------------------------------------------------

type HookAnswer = {
  allow?: true; ask?: string; deny?: string; updatedInput?: Record<string, unknown>; additionalContext?: string[]
}

// Claude Code's words for a tool name it does not know (dp/hook/events.py).
const UNKNOWN_TOOL = 'No such tool available'
const PAVE_CHECK_TIMEOUT_MS = 10000

// -- the hook's word scan: dp's OpenCode plugin carries this block as it is (dp/agents/opencode/install.py) --
type FrontDoor = { words: Set<string>; needs: Map<string, string>; everything: boolean; mentions: string[] }

// A command longer than this goes to dp as it is: the scan stays cheap, and
// pave-check's own bounds judge it.
const MAX_SCANNED = 65536
// The words the hook's first scan (dp/shell/words.py) reads as possible command
// names: separators become spaces, plain quoted strings are dropped (they never
// run anything), each word is taken by basename and, with a `/`, whole too.
const SEPARATORS = /[;&|()<>`{}$=]/g

export function commandWords(text: string): Set<string> {
  if (text.includes("'") || text.includes('"') || text.includes('\\')) text = dropPlainQuotes(text)
  const words = text.replace(SEPARATORS, ' ').split(/[ \t\n]+/).filter(w => w !== '')
  const found = new Set<string>()
  for (const word of words) {
    const base = word.slice(word.lastIndexOf('/') + 1)
    if (base !== '') found.add(base)
    if (word.includes('/')) found.add(word)
  }
  return found
}

function dropPlainQuotes(text: string): string {
  if (!text.includes('"') && !text.includes('\\')) {
    // Only single quotes: every other piece between them is quoted; an unclosed last one keeps its words.
    const pieces = text.split("'")
    if (pieces.length % 2) return pieces.filter((_, index) => index % 2 === 0).join(' ')
    return pieces.slice(0, -1).filter((_, index) => index % 2 === 0).join(' ') + pieces[pieces.length - 1]
  }
  const out: string[] = []
  let i = 0
  let escaped = -1
  const n = text.length
  // The next ' " and \ at or after i (n: none left), each searched again only once passed:
  // a search per step would make a long run of '' pairs quadratic.
  const found: Record<string, number> = { "'": -1, '"': -1, '\\': -1 }
  while (i < n) {
    for (const mark of Object.keys(found)) {
      if ((found[mark] ?? n) < i) {
        const place = text.indexOf(mark, i)
        found[mark] = place < 0 ? n : place
      }
    }
    const at = Math.min(...Object.values(found))
    if (at >= n) {
      out.push(text.slice(i))
      break
    }
    out.push(text.slice(i, at))
    const mark = text[at]
    if (mark === '\\') {
      out.push(text.slice(at + 1, at + 2))
      escaped = at + 1
      i = at + 2
    } else if (mark === "'") {
      const ansiC = at > 0 && text[at - 1] === '$' && escaped !== at - 1
      const close = closingQuote(text, at, ansiC)
      if (close >= n) {
        out.push(text.slice(at + 1))
        break
      }
      out.push(' ')
      i = close + 1
    } else {
      const close = closingQuote(text, at, true)
      const inner = text.slice(at + 1, close)
      out.push(inner.includes('$(') || inner.includes('`') ? ` ${inner} ` : ' ')
      i = close + 1
    }
  }
  return out.join('')
}

function closingQuote(text: string, at: number, escapes: boolean): number {
  const quote = text.charAt(at)
  const n = text.length
  let close = at + 1
  if (!escapes) {
    close = text.indexOf(quote, close)
    return close < 0 ? n : close
  }
  while (close < n && text[close] !== quote) close += text[close] === '\\' ? 2 : 1
  return close
}

// The scan is the hook's own gate: pave-check fetches rules for these words
// only and gates paving on them, so a command holding none of them gets no
// answer from it, whatever else it holds (`$( )`, here-docs, `eval`, `. file`:
// dp/hook/gate.py `door`). Where the two languages could
// read different words (anything beyond plain printable ASCII: their ideas of
// whitespace part) the command goes to dp.
const PLAIN = /^[\t\n\x20-\x7e]*$/

// Whether dp must see this Bash command: the mod's one decision. A word in
// `needs` (a paving word no rule is keyed on) counts only with its text in the
// command (`python` only with ` -m`), as paving's own gate reads it. A mention
// (dp's own name) counts anywhere, quoted too (`bash -c 'dp trust'`): pave-check
// asks the person about dp's commands that widen what it does, rule or none.
export function asksDp(command: unknown, door: FrontDoor | null): boolean {
  if (door === null || door.everything || typeof command !== 'string') return true
  if (command.length > MAX_SCANNED || !PLAIN.test(command)) return true
  if (door.mentions.some(text => command.includes(text))) return true
  for (const word of commandWords(command)) {
    if (!door.words.has(word)) continue
    const needs = door.needs.get(word)
    if (needs === undefined || command.includes(needs)) return true
  }
  return false
}

type BashSnapshot = { words?: unknown; needs?: unknown; everything?: unknown; mentions?: unknown; sources?: unknown }

// The front door a snapshot holds, its sources unread; null when it is odd.
export function doorOf(snapshot: unknown): FrontDoor | null {
  const bash = (snapshot as { bash?: unknown } | null)?.bash as BashSnapshot | undefined
  if (typeof bash !== 'object' || bash === null || !Array.isArray(bash.words) || !Array.isArray(bash.mentions)) return null
  const words = new Set(bash.words.filter((word): word is string => typeof word === 'string'))
  const mentions = bash.mentions.filter((text): text is string => typeof text === 'string' && text !== '')
  return { words, needs: needsOf(bash.needs), everything: bash.everything !== false, mentions }
}

// The snapshot's `needs` ({word: text}); a word whose entry is odd counts
// without it (more calls to dp, never fewer).
function needsOf(listed: unknown): Map<string, string> {
  const needs = new Map<string, string>()
  if (typeof listed !== 'object' || listed === null) return needs
  for (const [word, text] of Object.entries(listed)) if (typeof text === 'string' && text !== '') needs.set(word, text)
  return needs
}
// -- end of the word scan --

// The snapshot's word set; null (every call to dp) when it is missing, odd, or
// stale: a source it was made from (the rules stamp, the paving switch, a
// trusted project file) has changed since.
async function frontDoor($: EngineInterface, dir: string): Promise<FrontDoor | null> {
  try {
    const snapshot: unknown = JSON.parse(await $.fs.read(`${dir}/${SNAPSHOT}`))
    const door = doorOf(snapshot)
    const bash = (snapshot as { bash: BashSnapshot }).bash
    if (door === null || !Array.isArray(bash.sources)) return null
    for (const source of bash.sources as unknown[]) {
      const { path, mtime_ms: made } = (source ?? {}) as { path?: unknown; mtime_ms?: unknown }
      if (typeof path !== 'string') return null
      const now = (await $.fs.exists(path)) ? (await $.fs.stat(path)).mtimeMs : null
      if (now === null ? made !== null : typeof made !== 'number' || Math.abs(now - made) > 1) return null
    }
    return door
  } catch {
    return null
  }
}

// The classic handlers' command lines, which the plugin's dp-plugin.json names
// (a user-scope plugin only): pave-check's, without which this mod is no front
// door, and dp-capture's while capture is on.
type Commands = { paveCheck: string; capture: string | null }

async function dpCommands($: EngineInterface): Promise<Commands | null> {
  try {
    const config = JSON.parse(await $.fs.read(`${$.plugin.root}/hooks/dp-plugin.json`)) as Record<string, unknown>
    const named = (key: string) => typeof config[key] === 'string' && config[key] !== '' ? config[key] as string : null
    const paveCheck = named('pave_check')
    return paveCheck === null ? null : { paveCheck, capture: named('capture') }
  } catch {
    return null
  }
}

// pave-check run on a classic hook's own stdin: exit 2 is a block with its
// stderr, JSON on exit 0 the hook's `hookSpecificOutput`, anything else (it
// failed) no answer, as a failed classic hook is.
async function runDp($: EngineInterface, command: string, payload: unknown,
  timeoutMs = PAVE_CHECK_TIMEOUT_MS): Promise<{ block?: string; output: Record<string, unknown> }> {
  const ran = await $.process.run(['/bin/sh', '-c', command], {
    stdin: JSON.stringify(payload), timeoutMs, env: await $.process.hookEnv(),
  })
  if (ran.exitCode === 2) return { block: ran.stderr.trim() || 'blocked by dp', output: {} }
  if (ran.exitCode !== 0 || ran.stdout.trim() === '') return { output: {} }
  const parsed = JSON.parse(ran.stdout) as { hookSpecificOutput?: Record<string, unknown> }
  return { output: parsed.hookSpecificOutput ?? {} }
}

function contextOf(output: Record<string, unknown>): string[] {
  const text = output.additionalContext
  return typeof text === 'string' && text !== '' ? [text] : []
}

// The PreToolUse answer, as `classic.PreToolUse` takes one.
async function askDp($: EngineInterface, command: string, e: Record<string, unknown>): Promise<HookAnswer> {
  const { tool: _tool, tool_use_id: id, agentId: _agent, requestMeta: _meta, ...input } = e
  const payload = {
    session_id: await $.session.id(), cwd: await $.session.cwd(), hook_event_name: 'PreToolUse',
    tool_name: 'Bash', tool_input: input, tool_use_id: id,
  }
  const { block, output } = await runDp($, command, payload)
  if (block !== undefined) return { deny: block }
  const answer: HookAnswer = {}
  const reason = typeof output.permissionDecisionReason === 'string' ? output.permissionDecisionReason : ''
  if (output.permissionDecision === 'deny') answer.deny = reason
  else if (output.permissionDecision === 'ask') answer.ask = reason
  else if (output.permissionDecision === 'allow') answer.allow = true
  if (typeof output.updatedInput === 'object' && output.updatedInput !== null) {
    answer.updatedInput = output.updatedInput as Record<string, unknown>
  }
  const context = contextOf(output)
  if (context.length) answer.additionalContext = context
  return answer
}

// Whether a finished batch holds a call the client refused by name: the one
// case dp's PostToolBatch answer (a correction for an aliased name) is about.
export function batchAsksDp(e: unknown): boolean {
  const calls = (e as { tool_calls?: unknown }).tool_calls
  if (!Array.isArray(calls)) return true
  return calls.some(call => {
    const response = (call as { tool_response?: unknown } | null)?.tool_response
    const text = typeof response === 'string' ? response : JSON.stringify(response ?? null)
    return text.includes(UNKNOWN_TOOL)
  })
}

// dp's correction after a batch with a refused name, or none.
async function batchContext($: EngineInterface, command: string, e: unknown): Promise<string[]> {
  try {
    return contextOf((await runDp($, command, { ...(e as object), hook_event_name: 'PostToolBatch' })).output)
  } catch {
    return []
  }
}

// pave-check's answer, or none when it could not be asked (it fails open, here
// as in the classic handler).
async function dpAnswer($: EngineInterface, command: string, e: Record<string, unknown>): Promise<HookAnswer> {
  try {
    return await askDp($, command, e)
  } catch {
    return {}
  }
}

// dp's answer folded with the other settings hooks' (theirs beneath, run on
// the call as the model wrote it, as classic hooks all are): a deny of either
// refuses, then an ask, then an allow; theirs overwrites the input last, and the
// contexts add up.
function folded(dp: HookAnswer, others: HookAnswer): HookAnswer {
  const context = [...(dp.additionalContext ?? []), ...(others.additionalContext ?? [])]
  const input = others.updatedInput ?? dp.updatedInput
  const extra = { ...(input !== undefined ? { updatedInput: input } : {}), ...(context.length ? { additionalContext: context } : {}) }
  if (dp.deny !== undefined || others.deny !== undefined) return { deny: dp.deny ?? others.deny ?? '', ...extra }
  if (dp.ask !== undefined || others.ask !== undefined) return { ask: dp.ask ?? others.ask ?? '', ...extra }
  if (dp.allow || others.allow) return { allow: true, ...extra }
  return extra
}

// Becomes the front door once per session, before the first Bash call: the
// variable that makes the classic Bash, PostToolBatch and capture handlers step
// aside is set only when this mod can run pave-check (and dp-capture) itself.
// The commands, or null.
async function openFrontDoor($: EngineInterface, session: string): Promise<Commands | null> {
  try {
    const commands = await dpCommands($)
    if (commands === null) return null
    const set = await $.env.set('DP_MOD_FRONT_DOOR', session)
    return set.deny === undefined ? commands : null
  } catch {
    return null
  }
}

type Door = { session?: string; commands?: Promise<Commands | null> }

// The front door of the current session: opened anew when the session's id
// changes (`/clear`, a resume), since the classic handlers compare the variable
// with the id they run under.
async function currentDoor($: EngineInterface, door: Door): Promise<Commands | null> {
  try {
    const session = await $.session.id()
    if (door.session !== session || door.commands === undefined) {
      door.session = session
      door.commands = openFrontDoor($, session)
    }
    return await door.commands
  } catch {
    return null
  }
}

// The pave-check command once this mod is the session's front door, else null.
async function paveCheck($: EngineInterface, door: Door): Promise<string | null> {
  return (await currentDoor($, door))?.paveCheck ?? null
}

// -- capture: dp-capture only for what dp keeps of a call ----------------------

// dp-capture stores a failure with its input (and prints a learned answer for
// it), a success's command only within this many calls after a failure of its
// session (dp/capture/events.py FOLLOW_CALLS: the fix dp.learn pairs with it),
// and drains the records of calls this mod fixed. Any other success it would
// store as shapes alone, which `dp ingest` reads from the session's transcript
// (same event keys): no process for it here. The Bash calls after a failure are
// held and handed over together (dp-capture takes a JSON array, stored in
// order): when the last of them ran, with the next failure, or at the end of
// the turn (`classic.Stop`).
const FOLLOW_CALLS = 5
const CAPTURE_TIMEOUT_MS = 60000

// Per session: how many more Bash calls after its latest failure dp-capture keeps, and those held.
type Held = { left: number; calls: unknown[] }
type Capture = { command: string | null; held: Map<string, Held>; fixed: Set<string> }

// The session's capture: dp-capture's command once this mod is the front door (else null: the
// classic handlers run), with what is held across calls.
async function captureOf($: EngineInterface, door: Door, held: Map<string, Held>, fixed: Set<string>): Promise<Capture> {
  return { command: (await currentDoor($, door))?.capture ?? null, held, fixed }
}

// `classic.PostToolUseFailure`: dp-capture in line, as the classic handler ran,
// with the calls held before it; its learned answer before the other hooks' context.
async function afterFailure<E, R>($: EngineInterface, capture: Capture, e: E, next: Beneath<E, R>): Promise<R> {
  if (capture.command === null) return next(e)
  let context: string[] = []
  try {
    const session = await $.session.id()
    const before = capture.held.get(session)?.calls ?? []
    capture.held.set(session, { left: FOLLOW_CALLS, calls: [] })
    capture.fixed.delete(String((e as { tool_use_id?: unknown }).tool_use_id))
    const payload = before.length ? [...before, e] : e
    context = contextOf((await runDp($, capture.command, payload, CAPTURE_TIMEOUT_MS)).output)
  } catch {
    context = [] // capture is best effort, as dp-capture itself is
  }
  const others = (await next(e)) as { additionalContext?: string[] }
  if (!context.length) return others as R
  return { ...others, additionalContext: [...context, ...(others.additionalContext ?? [])] } as R
}

// What to do with a success: the calls to hand to dp-capture now (none: nothing).
// A Bash call within FOLLOW_CALLS of a failure of its session is held (without
// its output, which dp-capture never reads for a success), all of them handed
// over with the last; a call this mod fixed otherwise goes alone.
export function afterCall(call: Record<string, unknown>, session: string, held: Map<string, Held>,
  fixed: Set<string>): unknown[] {
  const wasFixed = fixed.delete(typeof call.tool_use_id === 'string' ? call.tool_use_id : '')
  const window = held.get(session)
  if (call.tool_name !== 'Bash' || window === undefined || window.left <= 0) return wasFixed ? [call] : []
  const { tool_response: _output, ...kept } = call
  window.calls.push(kept)
  window.left -= 1
  if (window.left > 0) return []
  held.delete(session)
  return window.calls
}

// dp-capture on `calls` (one payload, or an array), not waited for: the
// classic success handler is `async` too.
function captureLater($: EngineInterface, command: string, calls: unknown[]): void {
  const stdin = JSON.stringify(calls.length === 1 ? calls[0] : calls)
  void $.process.hookEnv()
    .then(env => $.process.run(['/bin/sh', '-c', command], { stdin, timeoutMs: CAPTURE_TIMEOUT_MS, env }))
    .catch(() => undefined)
}

// `classic.PostToolUse`: dp-capture only when it keeps something of the call;
// `judge` false (the hook failed) hands the call over whatever it is.
async function afterSuccess<E, R>($: EngineInterface, capture: Capture, e: E, next: Beneath<E, R>,
  judge: boolean): Promise<R> {
  if (capture.command === null) return next(e)
  const call = e as Record<string, unknown>
  const calls = judge ? afterCall(call, await $.session.id(), capture.held, capture.fixed) : [call]
  if (calls.length) captureLater($, capture.command, calls)
  return next(e)
}

// `classic.Stop` (the turn ended) and `classic.SessionEnd`: the calls held so
// far go to dp-capture now, waited for; the session's window goes on into its
// next turn.
async function atTurnEnd<E, R>($: EngineInterface, capture: Capture, e: E, next: Beneath<E, R>): Promise<R> {
  try {
    const window = capture.command === null ? undefined : capture.held.get(await $.session.id())
    if (window !== undefined && window.calls.length && capture.command !== null) {
      const calls = window.calls.splice(0)
      await runDp($, capture.command, calls.length === 1 ? calls[0] : calls, CAPTURE_TIMEOUT_MS)
    }
  } catch {
    // capture is best effort
  }
  return next(e)
}

type Beneath<E, R> = (e: E) => Promise<R>

// `classic.PreToolUse` for Bash once this mod is the front door (`command`,
// else the classic handler runs beneath as before); `judge` false asks dp
// whatever the words.
async function throughFrontDoor<E, R>($: EngineInterface, command: string | null, e: E, next: Beneath<E, R>,
  judge: boolean): Promise<R> {
  if (command === null) return next(e)
  let ask = true
  if (judge) {
    try {
      ask = asksDp((e as { command?: unknown }).command, await frontDoor($, await stateDir($)))
    } catch {
      ask = true
    }
  }
  if (!ask) return next(e)
  const answer = await dpAnswer($, command, e as Record<string, unknown>)
  return folded(answer, (await next(e)) as HookAnswer) as R
}

// `classic.PostToolBatch` once this mod is the front door: dp's correction
// first, the other hooks' context after it.
async function afterBatch<E, R>($: EngineInterface, command: string | null, e: E, next: Beneath<E, R>,
  judge: boolean): Promise<R> {
  if (command === null || (judge && !batchAsksDp(e))) return next(e)
  const context = await batchContext($, command, e)
  const others = (await next(e)) as { additionalContext?: string[] }
  if (!context.length) return others as R
  return { ...others, additionalContext: [...context, ...(others.additionalContext ?? [])] } as R
}

export const register: Register = (on, options) => {
  // tool_use_id → the alias `turn.step` applied, for `tool.call` to finish.
  const fixes = new Map<string, Alias>()
  const stateDirs = new Map<string, string>()
  const told = new Set<string>()
  let loadRecorded = false

  const door: Door = {} // dp's commands, once this mod is the session's front door
  const held = new Map<string, Held>() // session → the Bash calls after its failure dp-capture keeps
  const fixedCalls = new Set<string>() // tool_use_ids this mod fixed: their capture drains the record

  on('turn.step', async function* ($, e, next) {
    if (!loadRecorded) {
      loadRecorded = true
      const commands = await currentDoor($, door)
      await recordLoad($, commands !== null, (commands?.capture ?? null) !== null) // dp doctor's evidence
    }
    let state: State | null | undefined
    for await (const chunk of next(e)) {
      let out: TurnStepChunk = chunk
      if (chunk.kind === 'tool') {
        try {
          state ??= await loadState($)
          out = renamed(chunk, state, fixes)
          if (out !== chunk) stateDirs.set(chunk.id, state.dir)
        } catch {
          state = null // no snapshot, or it is unreadable: this chunk as the model wrote it
          out = chunk
        }
      }
      yield out
    }
  })

  // Bash before it runs: pave-check only for a command the snapshot's words say
  // dp can act on. In `.catch` (the hook failed before the hooks beneath ran)
  // dp is asked whatever the command, as the stepped-aside handler would have.
  on('classic.PreToolUse', { tool: 'Bash' }, async ($, e, next) => {
    return throughFrontDoor($, await paveCheck($, door), e, next, true)
  }).catch(async ($, e, next) => next.called ? next(e) : throughFrontDoor($, await paveCheck($, door), e, next, false))

  // After a batch: dp's correction matters only when the client refused a name.
  on('classic.PostToolBatch', async ($, e, next) => {
    return afterBatch($, await paveCheck($, door), e, next, true)
  }).catch(async ($, e, next) => next.called ? next(e) : afterBatch($, await paveCheck($, door), e, next, false))

  // After a call: dp-capture only for what it keeps (a failure, the calls just after it, a fixed call).
  on('classic.PostToolUseFailure', async ($, e, next) => afterFailure($, await captureOf($, door, held, fixedCalls), e, next))
    .catch(async ($, e, next) => next.called ? next(e) : afterFailure($, await captureOf($, door, held, fixedCalls), e, next))
  on('classic.PostToolUse', async ($, e, next) => afterSuccess($, await captureOf($, door, held, fixedCalls), e, next, true))
    .catch(async ($, e, next) => next.called ? next(e) : afterSuccess($, await captureOf($, door, held, fixedCalls), e, next, false))
  on('classic.Stop', async ($, e, next) => atTurnEnd($, await captureOf($, door, held, fixedCalls), e, next))
    .catch(($, e, next) => next(e))
  on('classic.SessionEnd', async ($, e, next) => atTurnEnd($, await captureOf($, door, held, fixedCalls), e, next))
    .catch(($, e, next) => next(e))

  const targets = Array.isArray(options.tools) ? options.tools : KNOWN_TARGETS
  on('tool.call', { tool: targets as readonly (typeof KNOWN_TARGETS)[number][] }, async ($, e, next) => {
    const alias = fixes.get(e.tool_use_id)
    if (alias === undefined) return next(e)
    fixes.delete(e.tool_use_id)
    const fixed = withToolKeys(e as Record<string, unknown>, alias) as typeof e
    // Recorded before the call runs, so the dp-capture its PostToolUse starts finds it.
    await recordFix($, stateDirs.get(e.tool_use_id), alias, e as Record<string, unknown>)
    fixedCalls.add(e.tool_use_id)
    stateDirs.delete(e.tool_use_id)
    const result = await next(fixed)
    if (result.deny !== undefined || told.has(alias.name)) return result
    told.add(alias.name)
    return { ...result, context: [...(result.context ?? []), note(alias)] }
  }).catch(($, e, next) => next(e))
}

async function recordLoad($: EngineInterface, frontDoor: boolean, capture: boolean): Promise<void> {
  try {
    const dir = await stateDir($)
    const record = {
      session_id: await $.session.id(), cwd: await $.session.cwd(), at: new Date().toISOString(), front_door: frontDoor, capture,
    }
    await $.fs.write(`${dir}/loaded.json`, JSON.stringify(record))
  } catch {
    // the record is evidence for dp doctor, never a reason to change the stream
  }
}

// One file per fix (`$.fs.write` replaces, it cannot append); dp-capture and
// dp ingest move them into dp's store.
async function recordFix($: EngineInterface, dir: string | undefined, alias: Alias, call: Record<string, unknown>) {
  if (dir === undefined) return
  try {
    const { tool: _tool, tool_use_id: id, agentId: _agent, ...input } = call
    const record = {
      session_id: await $.session.id(), cwd: await $.session.cwd(), tool_use_id: id, tool_name: alias.name,
      ran_as: alias.tool, tool_input: input, at: new Date().toISOString(),
    }
    await $.fs.write(`${dir}/fixes/${String(id).replace(/[^A-Za-z0-9_-]/g, '_')}.json`, JSON.stringify(record))
  } catch {
    // a lost record costs one count in dp desires, never the call
  }
}

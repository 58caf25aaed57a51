// dp (desire paths) in OpenCode: a tool call dp can act on asks dp's own
// `pave-check`; a failed call, and the few after it, are handed to `dp-capture`.
//
// This plugin decides only WHETHER to ask dp, never what to answer. The rules,
// project paving, tool-name corrections and what counts as a failure are dp's,
// in Python, the same for every agent; the plugin carries OpenCode's moments to
// dp as JSON and does what the answer says (dp/agents/opencode/__init__.py
// describes both):
//
// * `tool.execute.before`: `{"args"}` replaces the call's arguments in place
//   (OpenCode's permission check then judges what will really run) and its
//   `note` is added to the result the model reads; `{"error"}` refuses the
//   call with that text. A call of a made-up tool name arrives here as
//   OpenCode's `invalid` tool, so dp's tool-name corrections apply to it.
// * `experimental.chat.system.transform`: the corrections up front, asked once
//   per session, added to the system prompt.
// * `tool.execute.after` (a finished call, a command's exit code) and the
//   `event` hook (a call that failed: OpenCode fires no after-hook for it):
//   `dp-capture` records a failure in line (and may answer `{"note"}`: an
//   answer dp learned for it, added to the result the model reads), and the
//   Bash calls just after it in one process (the fix dp learns from).
//
// The front door: before a call, the plugin reads dp's hook gate as JSON
// (`<store>.hook-gate.json`, written by dp on every rule change: dp/hook/gate.py
// `door`, the gate pave-check itself answers from) and starts pave-check only
// for a call a rule, recipe, tool-name alias, trusted project file or paving
// could act on: a Bash command holding one of its words (the hook's own word
// scan, the Claude Code mod's port of it appended below), a tool with a rule on
// its input, an aliased name, a made-up name. A gate that is missing, odd or
// stale (a file it was made from changed since) sends every call to dp. An
// ordinary success starts nothing: it keeps no more than its shape, which dp
// does without here.
//
// Fail open: dp missing, slow, broken or answering nonsense leaves the call
// exactly as the model wrote it. The programs come from `dp-opencode.json` (`dp-AGENT.json`)
// beside this file (written by `dp init --agent opencode` for one user), else
// from PATH (a project's committed plugin finds each person's own dp).
import type { Hooks, Plugin } from '@opencode-ai/plugin'
import { spawn } from 'node:child_process'
import { readFile, stat } from 'node:fs/promises'

type Answer = { args?: unknown; error?: unknown; note?: unknown; system?: unknown }
type Programs = { pave: string[]; capture: string[] }

// dp's name for the agent this copy runs in: an agent built on OpenCode's plugin hooks (Kilo Code) gets
// this file with its own name here (dp/agents/opencode/install.py `PluginFiles`).
const AGENT = 'opencode'
const CONFIG = new URL(`./dp-${AGENT}.json`, import.meta.url)
const ON_PATH: Programs = {
  pave: ['pave-check', '--agent', AGENT],
  capture: ['dp-capture', '--agent', AGENT],
}
const PAVE_TIMEOUT_MS = 5000
const CAPTURE_TIMEOUT_MS = 10000
const MAX_PAYLOAD_CHARS = 1 << 20
const MAX_ANSWER_CHARS = 1 << 20
const MAX_OUTPUT_CHARS = 64 * 1024
const MAX_SESSIONS = 64
const MAX_CALLS = 4096 // calls remembered at once (notes, refusals, captures): a long session stays bounded
const INVALID_TOOL = 'invalid'
const SHELL_TOOL = 'bash'
// Bash calls after a failure dp-capture keeps (dp/capture/events.py FOLLOW_CALLS): the fix dp learns.
const FOLLOW_CALLS = 5
// OpenCode's tool names are dp's in lower case, but for these (dp.agents.opencode.adapter `tool_names`).
const OTHER_NAMES: Record<string, string> = { list: 'ls' }

async function programs(): Promise<Programs> {
  try {
    const config = JSON.parse(await readFile(CONFIG, 'utf8')) as { pave?: unknown; capture?: unknown }
    if (isArgv(config.pave) && isArgv(config.capture)) return { pave: config.pave, capture: config.capture }
  } catch {
    // no config beside the plugin: the programs on PATH
  }
  return ON_PATH
}

function isArgv(value: unknown): value is string[] {
  return Array.isArray(value) && value.length > 0 && value.every(part => typeof part === 'string')
}

// Run one of dp's programs with `payload` on stdin; its stdout, or '' on any
// failure (not started, timed out, too much output).
function run(argv: string[], payload: object, timeoutMs: number): Promise<string> {
  return new Promise(resolve => {
    const input = JSON.stringify(payload)
    if (input.length > MAX_PAYLOAD_CHARS) return resolve('')
    let out = ''
    let done = false
    const finish = (text: string) => {
      if (done) return
      done = true
      clearTimeout(timer)
      resolve(text)
    }
    let child: ReturnType<typeof spawn>
    try {
      child = spawn(argv[0], argv.slice(1), { stdio: ['pipe', 'pipe', 'ignore'] })
    } catch {
      return resolve('')
    }
    const timer = setTimeout(() => {
      child.kill('SIGKILL')
      finish('')
    }, timeoutMs)
    child.on('error', () => finish(''))
    child.stdout?.on('data', (chunk: Buffer) => {
      out += chunk.toString('utf8')
      if (out.length > MAX_ANSWER_CHARS) {
        child.kill('SIGKILL')
        finish('')
      }
    })
    child.on('close', code => finish(code === 0 ? out : ''))
    child.stdin?.on('error', () => finish(''))
    child.stdin?.end(input)
  })
}

async function ask(argv: string[], payload: object, timeoutMs = PAVE_TIMEOUT_MS): Promise<Answer> {
  const text = await run(argv, payload, timeoutMs)
  if (text.trim() === '') return {}
  try {
    const answer: unknown = JSON.parse(text)
    return typeof answer === 'object' && answer !== null && !Array.isArray(answer) ? (answer as Answer) : {}
  } catch {
    return {}
  }
}

// The gate beside the store pave-check uses: `--db` in its command, else $DP_DB, else ~/.dp/dp.db
// (dp/store/location.py); null when that is not an absolute path (every call then goes to dp).
function gatePath(pave: string[]): string | null {
  const at = pave.indexOf('--db')
  const db = at >= 0 ? pave[at + 1] : process.env.DP_DB || `${process.env.HOME ?? ''}/.dp/dp.db`
  return db !== undefined && db.startsWith('/') ? `${db}.hook-gate.json` : null
}

type Gate = { door: FrontDoor; tools: Set<string>; aliases: Set<string> }
type Source = { path?: unknown; mtime_ms?: unknown }

// The gate as it stands now; null (every call to dp) when it is missing, odd or
// stale: the rules stamp holds another token, or a file it was made from (the
// stamp, the paving switch, a trusted project file) has another time.
async function readGate(path: string | null): Promise<Gate | null> {
  if (path === null) return null
  try {
    const gate = JSON.parse(await readFile(path, 'utf8')) as { sources?: unknown; stamp?: unknown; tools?: unknown; aliases?: unknown }
    const door = doorOf({ bash: gate })
    const sources = gate.sources
    if (door === null || !Array.isArray(sources) || sources.length === 0 || typeof gate.stamp !== 'string') return null
    for (const source of sources as Source[]) {
      if (typeof source?.path !== 'string') return null
      const now = await stat(source.path).then(found => found.mtimeMs, () => null)
      const made = source.mtime_ms
      if (now === null ? made !== null : typeof made !== 'number' || Math.abs(now - made) > 1) return null
    }
    const stamp = await readFile((sources[0] as { path: string }).path, 'latin1').then(text => text.slice(0, 256), () => '')
    if (stamp !== gate.stamp) return null
    return { door, tools: lowered(gate.tools), aliases: lowered(gate.aliases) }
  } catch {
    return null
  }
}

function lowered(names: unknown): Set<string> {
  return new Set(Array.isArray(names) ? names.filter(name => typeof name === 'string').map(name => name.toLowerCase()) : [])
}

// Whether dp must see this call before it runs: the plugin's one decision (a superset of what
// pave-check acts on: more calls to dp, never fewer).
function asksFor(tool: string, args: unknown, gate: Gate | null): boolean {
  if (gate === null || tool === INVALID_TOOL) return true
  const names = [tool.toLowerCase(), OTHER_NAMES[tool] ?? tool.toLowerCase()]
  if (names.some(name => gate.aliases.has(name))) return true
  if (tool !== SHELL_TOOL) return names.some(name => gate.tools.has(name))
  return asksDp((args as { command?: unknown } | null)?.command, gate.door)
}

function bounded(text: unknown): string {
  return typeof text === 'string' ? text.slice(0, MAX_OUTPUT_CHARS) : ''
}

// The failed tool part of a `message.part.updated` event, if the event is one.
function failedPart(event: { type: string; properties?: unknown }) {
  if (event.type !== 'message.part.updated') return undefined
  const part = (event.properties as { part?: unknown } | undefined)?.part as
    | { type?: unknown; tool?: unknown; callID?: unknown; sessionID?: unknown; state?: unknown }
    | undefined
  if (part === undefined || part.type !== 'tool' || typeof part.tool !== 'string') return undefined
  const state = part.state as { status?: unknown; input?: unknown; error?: unknown } | undefined
  if (state?.status !== 'error') return undefined
  return { tool: part.tool, callID: String(part.callID ?? ''), sessionID: String(part.sessionID ?? ''),
           args: state.input, error: bounded(state.error) }
}

export const DpPlugin: Plugin = async ({ directory }) => {
  const dp = await programs()
  const gate = gatePath(dp.pave)
  const notes = new Map<string, string>() // callID → what dp tells the model after the result
  const refused = new Set<string>() // calls dp refused: their failure is dp's answer, not a desire
  const captured = new Set<string>()
  const systems = new Map<string, string>() // sessionID → the corrections up front
  const held = new Map<string, { left: number; calls: object[] }>() // sessionID → the calls after its failure

  const capture = (payload: object) => ask(dp.capture, payload, CAPTURE_TIMEOUT_MS)
  const remember = <T>(calls: Set<T> | Map<T, string>, call: T, note?: string) => {
    if (calls.size >= MAX_CALLS) calls.clear()
    if (calls instanceof Map) calls.set(call, note ?? '')
    else calls.add(call)
  }
  // A failure: dp-capture in line (its learned answer goes to the model), with the calls held
  // before it, and the next FOLLOW_CALLS Bash calls of its session held for the fix.
  const failed = (session: string, payload: object) => {
    const before = held.get(session)?.calls ?? []
    if (held.size >= MAX_SESSIONS) held.clear()
    held.set(session, { left: FOLLOW_CALLS, calls: [] })
    return capture(before.length ? [...before, payload] : payload)
  }
  // A success: nothing, unless it is a Bash call just after a failure; those go to dp-capture
  // together (a JSON array, stored in order) once the last of them ran, or when the session idles.
  const succeeded = (session: string, tool: string, payload: object) => {
    const window = held.get(session)
    if (tool !== SHELL_TOOL || window === undefined) return
    window.calls.push(payload)
    window.left -= 1
    if (window.left <= 0) flush(session)
  }
  const flush = (session: string) => {
    const calls = held.get(session)?.calls ?? []
    held.delete(session)
    if (calls.length) void capture(calls)
  }

  const hooks: Hooks = {
    'tool.execute.before': async (input, output) => {
      try {
        if (!asksFor(input.tool, output.args, await readGate(gate))) return
        const answer = await ask(dp.pave, {
          hook_event_name: 'tool.execute.before', tool: input.tool, args: output.args,
          session_id: input.sessionID, call_id: input.callID, cwd: directory,
        })
        if (typeof answer.error === 'string' && answer.error !== '') {
          remember(refused, input.callID)
          throw new DpRefusal(answer.error)
        }
        const args = answer.args
        if (typeof args === 'object' && args !== null && !Array.isArray(args) && input.tool !== INVALID_TOOL) {
          const target = output.args as Record<string, unknown>
          for (const key of Object.keys(target)) if (!(key in args)) delete target[key]
          Object.assign(target, args)
        }
        if (typeof answer.note === 'string' && answer.note !== '') remember(notes, input.callID, answer.note)
      } catch (error) {
        if (error instanceof DpRefusal) throw new Error(error.message)
        // anything else: the call as the model wrote it
      }
    },

    'tool.execute.after': async (input, output) => {
      try {
        const note = notes.get(input.callID)
        if (note !== undefined) {
          notes.delete(input.callID)
          output.output = `${output.output}\n\n${note}`
        }
        remember(captured, input.callID)
        const exit = (output.metadata as { exit?: unknown } | undefined)?.exit
        const call = {
          hook_event_name: 'tool.execute.after', tool: input.tool, args: input.args, session_id: input.sessionID,
          call_id: input.callID, cwd: directory, exit: typeof exit === 'number' ? exit : null,
        }
        // A failure (dp.agents.opencode.adapter: a command's non-zero exit, a made-up name) in line;
        // a success's output dp-capture never reads.
        if (input.tool !== INVALID_TOOL && !(input.tool === SHELL_TOOL && call.exit !== null && call.exit !== 0)) {
          return succeeded(input.sessionID, input.tool, call)
        }
        const told = await failed(input.sessionID, { ...call, output: bounded(output.output) })
        // a learned answer to this failure: read by the model right after the result, like a note
        if (typeof told.note === 'string' && told.note !== '') output.output = `${output.output}\n\n${told.note}`
      } catch {
        // capture is best effort
      }
    },

    event: async ({ event }) => {
      try {
        if (event.type === 'session.idle') {
          const session = (event.properties as { sessionID?: unknown } | undefined)?.sessionID
          if (typeof session === 'string') flush(session)
          return
        }
        const part = failedPart(event)
        if (part === undefined || captured.has(part.callID)) return
        remember(captured, part.callID)
        notes.delete(part.callID)
        if (refused.delete(part.callID)) return
        await failed(part.sessionID, {
          hook_event_name: 'tool.error', tool: part.tool, args: part.args, session_id: part.sessionID,
          call_id: part.callID, cwd: directory, error: part.error,
        })
      } catch {
        // capture is best effort
      }
    },

    'experimental.chat.system.transform': async (input, output) => {
      try {
        const session = input.sessionID
        if (session === undefined) return
        let text = systems.get(session)
        if (text === undefined) {
          const answer = await ask(dp.pave, { hook_event_name: 'session.start', session_id: session, cwd: directory })
          text = typeof answer.system === 'string' ? answer.system : ''
          if (systems.size >= MAX_SESSIONS) systems.delete(systems.keys().next().value as string)
          systems.set(session, text)
        }
        if (text !== '') output.system.push(text)
      } catch {
        // no corrections up front this time
      }
    },
  }
  return hooks
}

// dp's refusal, told apart from dp failing (which must leave the call alone).
class DpRefusal extends Error {}

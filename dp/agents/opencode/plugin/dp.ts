// dp (desire paths) in OpenCode: every tool call asks dp's own `pave-check`,
// every finished or failed call is handed to `dp-capture`.
//
// This plugin decides nothing. The rules, project paving, tool-name
// corrections and what counts as a failure are dp's, in Python, the same for
// every agent; the plugin only carries OpenCode's moments to dp as JSON and
// does what the answer says (dp/agents/opencode/__init__.py describes both):
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
//   `dp-capture` records them. After a command that failed, dp-capture may
//   answer `{"note"}`: an answer dp learned for that failure, added to the
//   result the model reads (once per session: dp decides).
//
// Fail open: dp missing, slow, broken or answering nonsense leaves the call
// exactly as the model wrote it. The programs come from `dp-opencode.json`
// beside this file (written by `dp init --agent opencode` for one user), else
// from PATH (a project's committed plugin finds each person's own dp).
import type { Hooks, Plugin } from '@opencode-ai/plugin'
import { spawn } from 'node:child_process'
import { readFile } from 'node:fs/promises'

type Answer = { args?: unknown; error?: unknown; note?: unknown; system?: unknown }
type Programs = { pave: string[]; capture: string[] }

const CONFIG = new URL('./dp-opencode.json', import.meta.url)
const ON_PATH: Programs = {
  pave: ['pave-check', '--agent', 'opencode'],
  capture: ['dp-capture', '--agent', 'opencode'],
}
const PAVE_TIMEOUT_MS = 5000
const CAPTURE_TIMEOUT_MS = 10000
const MAX_PAYLOAD_CHARS = 1 << 20
const MAX_ANSWER_CHARS = 1 << 20
const MAX_OUTPUT_CHARS = 64 * 1024
const MAX_SESSIONS = 64
const MAX_CALLS = 4096 // calls remembered at once (notes, refusals, captures): a long session stays bounded
const INVALID_TOOL = 'invalid'

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
  const notes = new Map<string, string>() // callID → what dp tells the model after the result
  const refused = new Set<string>() // calls dp refused: their failure is dp's answer, not a desire
  const captured = new Set<string>()
  const systems = new Map<string, string>() // sessionID → the corrections up front

  const capture = (payload: object) => ask(dp.capture, payload, CAPTURE_TIMEOUT_MS)
  const remember = <T>(calls: Set<T> | Map<T, string>, call: T, note?: string) => {
    if (calls.size >= MAX_CALLS) calls.clear()
    if (calls instanceof Map) calls.set(call, note ?? '')
    else calls.add(call)
  }

  const hooks: Hooks = {
    'tool.execute.before': async (input, output) => {
      try {
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
        const told = await capture({
          hook_event_name: 'tool.execute.after', tool: input.tool, args: input.args, session_id: input.sessionID,
          call_id: input.callID, cwd: directory, output: bounded(output.output),
          exit: typeof exit === 'number' ? exit : null,
        })
        // a learned answer to this failure: read by the model right after the result, like a note
        if (typeof told.note === 'string' && told.note !== '') output.output = `${output.output}\n\n${told.note}`
      } catch {
        // capture is best effort
      }
    },

    event: async ({ event }) => {
      try {
        const failed = failedPart(event)
        if (failed === undefined || captured.has(failed.callID)) return
        remember(captured, failed.callID)
        notes.delete(failed.callID)
        if (refused.delete(failed.callID)) return
        await capture({
          hook_event_name: 'tool.error', tool: failed.tool, args: failed.args, session_id: failed.sessionID,
          call_id: failed.callID, cwd: directory, error: failed.error,
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

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

export const register: Register = (on, options) => {
  // tool_use_id → the alias `turn.step` applied, for `tool.call` to finish.
  const fixes = new Map<string, Alias>()
  const stateDirs = new Map<string, string>()
  const told = new Set<string>()
  let loadRecorded = false

  on('turn.step', async function* ($, e, next) {
    if (!loadRecorded) {
      loadRecorded = true
      await recordLoad($) // once per session, before the first request: dp doctor's evidence
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

  const targets = Array.isArray(options.tools) ? options.tools : KNOWN_TARGETS
  on('tool.call', { tool: targets as readonly (typeof KNOWN_TARGETS)[number][] }, async ($, e, next) => {
    const alias = fixes.get(e.tool_use_id)
    if (alias === undefined) return next(e)
    fixes.delete(e.tool_use_id)
    const fixed = withToolKeys(e as Record<string, unknown>, alias) as typeof e
    // Recorded before the call runs, so the dp-capture its PostToolUse starts finds it.
    await recordFix($, stateDirs.get(e.tool_use_id), alias, e as Record<string, unknown>)
    stateDirs.delete(e.tool_use_id)
    const result = await next(fixed)
    if (result.deny !== undefined || told.has(alias.name)) return result
    told.add(alias.name)
    return { ...result, context: [...(result.context ?? []), note(alias)] }
  }).catch(($, e, next) => next(e))
}

async function recordLoad($: EngineInterface): Promise<void> {
  try {
    const dir = await stateDir($)
    const record = { session_id: await $.session.id(), cwd: await $.session.cwd(), at: new Date().toISOString() }
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

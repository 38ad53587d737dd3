// Kept to syntax every Node since 12 parses: it runs before anything that needs a new Node.

/** "22.19.0" or "v20.1" → [22, 19, 0]; undefined when it is not a version. */
function parseVersion(text) {
  var m = /^v?(\d+)(?:\.(\d+))?(?:\.(\d+))?/.exec(String(text).trim())
  if (m === null) return undefined
  return [Number(m[1]), Number(m[2] || 0), Number(m[3] || 0)]
}

function older(a, b) {
  for (var i = 0; i < 3; i++) if (a[i] !== b[i]) return a[i] < b[i]
  return false
}

/**
 * One line saying what is needed, what was found and how to get it, when the
 * running Node is older than package.json's engines.node (">=22.19");
 * undefined when it is new enough (or the range is not a plain ">=").
 */
export function nodeVersionProblem(found, engines, execPath) {
  var range = /^\s*>=\s*(\S+)\s*$/.exec(String(engines))
  var need = range === null ? undefined : parseVersion(range[1])
  var have = parseVersion(found)
  if (need === undefined || have === undefined || !older(have, need)) return undefined
  var wanted = range[1]
  return `needs Node.js ${wanted} or newer; this is Node.js ${found} (${execPath}). Install Node.js ${wanted}+ (https://nodejs.org, or \`nvm install 22\`) and put it first on PATH, or run cyrene with that node: /path/to/node22/bin/node <this package>/bin/cyrene.js …`
}

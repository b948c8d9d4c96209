import { hash } from 'node:crypto'

/**
 * What a data answer's ETag is computed from, cheaply (docs/api.md, "ETag and If-None-Match"). An
 * answer is written from parts kept rendered (a surface, an all-protocols answer's pieces, an
 * activity page's items) and a few members of its own; hashing the whole body on every request
 * would cost as much as answering a large one. Instead each kept part's hash is computed once and
 * kept beside it, and an answer's tag hashes those and its own stable members. The writer hands the
 * tag to the reply with its body (`offerBodyTag`); a body nobody offered a tag for is hashed whole.
 */

/** The hash of a text: SHA-1, base64url (27 characters). */
export function textTag(text: string): string {
  return hash('sha1', text, 'base64url')
}

/** An answer's tag, with what it was computed from beside the part's own tag. */
interface AnswerTag {
  kind: string
  members: string
  tag: string
}

/**
 * What is kept beside a part: its hash, and the tags of the last two answers written around it
 * (newest first) with those answers' own stable members, so either asked again costs a string
 * comparison.
 */
interface KeptTags {
  tag: string
  answers: [AnswerTag | null, AnswerTag | null]
}
const keptTags = new WeakMap<object, KeptTags>()

function keptOf(part: object, text: () => string): KeptTags {
  let kept = keptTags.get(part)
  if (kept === undefined) {
    kept = { tag: textTag(text()), answers: [null, null] }
    keptTags.set(part, kept)
  }
  return kept
}

/** The hash of a kept part (an object the caches hold), computed on first use and kept beside it. */
export function keptTag(part: object, text: () => string): string {
  return keptOf(part, text).tag
}

/**
 * The tag of an answer written around a kept part: the hash of `${kind}|${the part's tag}|${members}`,
 * `members` being what the answer says beside the part (its stable `meta` members, the sections'
 * staleness). The last two are kept beside the part: a repeated request (the same URL asked again,
 * as a client polls it, or two pins that the same kept answer serves, asked in turn) gets its tag
 * back for a comparison of `members`, not a hash per request. Two per part, so a part's memory
 * grows by two short strings.
 */
export function keptAnswerTag(part: object, text: () => string, kind: string, members: string): string {
  const kept = keptOf(part, text)
  const [last, before] = kept.answers
  if (last !== null && last.members === members && last.kind === kind) return last.tag
  if (before !== null && before.members === members && before.kind === kind) {
    kept.answers = [before, last]
    return before.tag
  }
  const answer = { kind, members, tag: textTag(`${kind}|${kept.tag}|${members}`) }
  kept.answers = [answer, last]
  return answer.tag
}

// The body a writer has just written, its tag and whether it says `"partial_result":true`, for the
// reply that sends it in this same turn.
let offeredBody: string | null = null
let offeredTag = ''
let offeredPartial: boolean | null = null

/**
 * Writes down `tag` as the tag of `body`, which the caller is about to send; returns `body`.
 * `partial`, when the writer knows it, says whether the body holds `"partial_result":true` anywhere
 * (its `meta` or a section), so the caching step need not search the body for it.
 */
export function offerBodyTag(body: string, tag: string, partial: boolean | null = null): string {
  offeredBody = body
  offeredTag = tag
  offeredPartial = partial
  return body
}

/**
 * The tag offered for `body`, or null. Only a body equal to the one offered gets it (the same
 * string, normally: the writer's result passed straight to the reply), so a tag never reaches
 * another answer.
 */
export function takeBodyTag(body: string): string | null {
  return takeBodyOffer(body)?.tag ?? null
}

/** What the writer offered with `body` (see `offerBodyTag`), taken once; null when nothing was. */
export function takeBodyOffer(body: string): { tag: string; partial: boolean | null } | null {
  if (offeredBody === null || offeredBody.length !== body.length || offeredBody !== body) return null
  offeredBody = null
  return { tag: offeredTag, partial: offeredPartial }
}

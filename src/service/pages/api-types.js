// @ts-check
// The API's JSON as the pages read it, for the type checker only (no page
// loads this file: `@import` of a type is a comment at run time). Each
// type names its row in docs/api.md; tests/service/api_contract.rs holds every
// field read here to a real table's answer.

/** @typedef {"white" | "black"} Side */

/**
 * Both clocks, read at `as_of_ms` (docs/api.md `ClockView`).
 * @typedef {object} ClockView
 * @property {number} white_ms
 * @property {number} black_ms
 * @property {boolean} running
 * @property {"not_started" | "running" | "paused" | "flagged"} state
 * @property {number} moves
 * @property {Side | null} flag
 * @property {Side | null} running_side
 * @property {number} as_of_ms
 */

/**
 * A tactile board as the table sees it (`BoardView`).
 * @typedef {object} BoardView
 * @property {boolean} connected
 * @property {boolean} in_sync
 * @property {string | null} following
 * @property {string[]} differs
 * @property {string} fen
 * @property {string[]} occupied
 * @property {string | null} pieces
 * @property {boolean} promotion_pending
 * @property {number} unreadable
 * @property {number} failures
 */

/**
 * How a game ended (`GameResult`): `ending` is a catalogue message
 * (`js-ending-{ending}`); `reason` is the English words for it.
 * @typedef {"checkmate" | "stalemate" | "dead_position" | "fivefold_repetition"
 *   | "seventy_five_moves" | "agreement" | "threefold_repetition" | "fifty_moves"
 *   | "resignation" | "flag_fell" | "arbiter"} Ending
 * @typedef {object} GameResult
 * @property {"1-0" | "0-1" | "1/2-1/2"} result
 * @property {string} reason
 * @property {Ending} ending
 */

/**
 * Something that needs the arbiter's eye (`Alert`): `key` is a catalogue
 * message (`js-alert-{key}`) filled with `args`.
 * @typedef {object} Alert
 * @property {string} kind
 * @property {string} text
 * @property {string} key
 * @property {Record<string, string>} args
 */

/**
 * @typedef {object} TouchedPiece
 * @property {Side} side
 * @property {string} square
 * @property {number} ply
 * @property {number} at_ms
 */

/**
 * @typedef {object} Irregularity
 * @property {Side} side
 * @property {string} text
 * @property {number} ply
 * @property {number} at_ms
 */

/**
 * @typedef {object} AudioView
 * @property {"playing" | "failed" | "starting" | "none"} state
 * @property {string} device
 * @property {string | null} error
 * @property {number} reopened
 * @property {number} retried
 */

/**
 * One table (`GET /api/tables/{id}`, the live `state` event; `TableView`).
 * @typedef {object} TableView
 * @property {string} id
 * @property {string} white
 * @property {string} black
 * @property {string} event
 * @property {string} round
 * @property {number} game
 * @property {boolean} begun
 * @property {Side} blind
 * @property {string} control
 * @property {string} fen
 * @property {Side} turn
 * @property {string[]} moves
 * @property {string[]} moves_uci
 * @property {string[]} legal_moves
 * @property {ClockView} clock
 * @property {"standard" | "rapid" | "blitz"} kind
 * @property {"claim" | "auto"} flag_rule
 * @property {"left" | "used"} clock_says
 * @property {{ white: number, black: number }} illegal_completed
 * @property {BoardView | null} board
 * @property {BoardView | null} opponent_board
 * @property {GameResult | null} result
 * @property {Side | null} draw_offer
 * @property {TouchedPiece[]} touched
 * @property {number} touched_count
 * @property {Irregularity[]} illegal
 * @property {number} illegal_count
 * @property {Alert[]} alerts
 * @property {AudioView} audio
 * @property {string | null} last_announcement
 * @property {string} voice_lang
 * @property {number} rate
 */

/**
 * What the table said (the live `announcement` event, `Announcement`).
 * @typedef {object} Announcement
 * @property {number} seq
 * @property {string} kind
 * @property {string} text
 * @property {string[]} tokens
 */

/**
 * Announcements made while a page was away (the live `missed` event).
 * @typedef {object} Missed
 * @property {Announcement[]} announcements
 * @property {boolean} complete
 */

/**
 * The answer to a write (`r.data.text`: what the table said, if anything).
 * @typedef {object} Reply
 * @property {string} [text]
 * @property {boolean} [paced] asked again while its answer was being said: `text` shown, not said
 */

/**
 * The arbiter's D.2.9 ruling (`RulingJson`).
 * @typedef {object} Ruling
 * @property {string} case
 * @property {number} agreed_plies
 * @property {{ ply: number, white: string | null, black: string | null } | null} first_difference
 * @property {string} position
 * @property {{ white_ms: number, black_ms: number, proposal: boolean } | null} clock
 */

/**
 * The table's voice pack (`GET /api/tables/{id}/voice`).
 * @typedef {object} Voice
 * @property {number} gap_ms
 * @property {Record<string, string>} clips
 */

/**
 * A round's game on the arbiter's overview (`GET /api/rounds`).
 * @typedef {object} RoundGame
 * @property {string} table
 * @property {string} white
 * @property {string} black
 * @property {"not_begun" | "under_way" | "finished"} state
 * @property {string | null} [result]
 * @typedef {object} TeamRef
 * @property {number} number
 * @property {string} name
 * @typedef {object} MatchScore
 * @property {TeamRef} first
 * @property {TeamRef | null} second
 * @property {[string, string]} score
 * @property {boolean} finished
 * @typedef {object} Round
 * @property {string} round
 * @property {RoundGame[]} games
 * @property {MatchScore[]} [matches]
 * @typedef {object} Rounds
 * @property {Round[]} rounds
 */

/**
 * A listed player without a game in a round just set up (`POST
 * /api/rounds`): `key` is a catalogue message (`js-unpaired-{key}`)
 * filled with `args`; `why` is the English words for it.
 * @typedef {object} Unpaired
 * @property {string} name
 * @property {number} start_rank
 * @property {string} why
 * @property {string} key
 * @property {Record<string, string>} args
 */

/**
 * What `tactus.api` answers: the JSON on success, the error's words
 * otherwise (`unreachable` when no answer came, `timeout` when given up).
 * @template T
 * @typedef {{ ok: true, status: number, data: T } | ApiFailure} ApiResult
 */

/**
 * A request that failed: the error's words (the API's `{"error": …}`, or
 * the page's own when no answer came: `unreachable`, `timeout` when given
 * up), and the answer's body if one came.
 * @typedef {object} ApiFailure
 * @property {false} ok
 * @property {number} status
 * @property {string} error
 * @property {unknown} [data]
 * @property {boolean} [unreachable]
 * @property {boolean} [timeout]
 */

export {};

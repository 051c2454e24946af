# The pages' words in English. Every catalogue (en.ftl, es.ftl, de.ftl) has
# every message: a test in src/service/i18n.rs checks it. Messages starting
# with js- are used by the pages' scripts; { $name } in them is filled in
# there.

## Shared
lang-name = English
lang-label = Language of this page
white = White
black = Black
white-lower = white
black-lower = black
skip-to-move = Skip to the move box
loading = Loading the game…
access-h = Access
token-label = { $role } token
token-save = Save
role-player = Player
role-assistant = Assistant
role-arbiter = Arbiter
notation-label = Piece letters
notation-table = The table's setting
notation-auto = Any language
notation-en = English (K Q R B N)
notation-de = German (K D T L S)
notation-es = Spanish, Italian (R D T A C)
notation-fr = French (R D T F C)
notation-nl = Dutch (K D T L P)

## Index
index-intro = Appendix D chess for blind and visually impaired players. Open your page with the link (it carries your access token) given at start-up.
index-tables = Tables
index-row = Table { $table }:
index-player = player
index-assistant = assistant
index-arbiter = arbiter
index-all = All tables (arbiter)

## Player page
player-title = Player, table { $table }
player-say-h = Announcements
player-log-label = Announcements and answers, newest last
player-move-h = Your move or a command
player-move-label = Move or command
player-send = Send
player-help = Type a move in any notation (e4, Nf3, Sf3, Ng1-f3, O-O, e8=Q) and press Enter. Commands:
player-help-clock = clock
player-help-left = time left
player-help-used = time used
player-help-last = last moves
player-help-repeat = repeat the last announcement
player-help-diff = board differences
player-help-pieces = and a piece ({ $example1 }, { $example2 } for Black's king) where those pieces stand
player-help-line = and a file or rank ({ $example1 }, { $example2 }) what stands there
player-help-all = all moves.
player-btn-clock = Clock
player-btn-last = Last moves
player-btn-repeat = Repeat
player-btn-diff = Board differences
player-btn-all = All moves
player-token-note = Your link from the arbiter carries your token; without it you can listen but not move.

## Assistant page
assistant-title = Assistant, table { $table }
assistant-move-h = Enter a move
assistant-move-label = Move (any notation: e4, Nf3, Sf3, Cf3, Ng1-f3, 0-0)
assistant-move-btn = Make move
assistant-act-h = For the player (D.2.10)
assistant-repeat = Repeat last announcement
assistant-say-clock = Say the clock
assistant-say-used = Say the time used
assistant-say-diff = Say board differences
assistant-touched-by = Touched by
assistant-on-square = on square
assistant-square-title = a square such as e2
assistant-touched-btn = Record touched piece
assistant-side = Side
assistant-offers = Offers a draw
assistant-declines = Declines the draw
assistant-claim-move = Move declared with a claim (optional, not played)
assistant-claim-threefold = Claims threefold repetition
assistant-claim-fifty = Claims fifty moves
assistant-resigns = Resigns
assistant-draw-agreed = Draw agreed
assistant-flag = Claim flag fall
assistant-clock-h = Clock
assistant-start = Start clock
assistant-pause = Pause for the arbiter
assistant-resume = Resume
assistant-log-h = Announcements
assistant-log-label = Announcements, newest last
assistant-moves-h = Moves
assistant-pgn = Download PGN

## Arbiter page
arbiter-title = Arbiter
arbiter-all-h = All tables
arbiter-caption = Every table: players, moves, clocks, board and alerts
arbiter-col-table = Table
arbiter-col-players = Players
arbiter-col-moves = Moves
arbiter-col-board = Board
arbiter-col-result = Result
arbiter-col-alerts = Alerts
arbiter-pgn-all = Download the PGN of every table
arbiter-table-h = Table
arbiter-game-board = Game position
arbiter-blind-board = Tactile board
arbiter-record-h = Record
arbiter-ruling-h = D.2.9: diverging boards
arbiter-white-sheet = White's scoresheet
arbiter-black-sheet = Black's scoresheet
arbiter-check-ruling = Check the ruling
arbiter-apply-ruling = Apply the ruling and restore the clocks
arbiter-ruling-label = Ruling
arbiter-clock-h = Clock and penalties
arbiter-illegal-by = Completed illegal move (7.5.5) by
arbiter-illegal-btn = Rule it completed
arbiter-adj-seconds = Seconds (negative to take)
arbiter-adj-reason = Reason
arbiter-adj-reason-default = Article 7.5.5: illegal move by the opponent
arbiter-adjust = Adjust clock
arbiter-pause = Pause clock
arbiter-resume = Resume clock
arbiter-result = Result
arbiter-result-reason-default = arbiter's decision
arbiter-set-result = Set result
arbiter-pgn-one = Download this table's PGN
arbiter-log-label = Table events, newest last

## Used by the scripts
js-white = White
js-black = Black
js-white-lower = white
js-black-lower = black
js-server-unreachable = The server cannot be reached.
js-request-failed = Request failed
js-token-saved = Token saved for this tab.
js-refused = Refused: { $error }
js-no-moves = No moves yet.
js-connection-lost = Connection to the server lost; retrying…
js-you-play = You play { $side }.
js-game-over = Game over: { $result }, { $reason }.
js-to-move-number = { $side } to move, move { $number }.
js-to-move = { $side } to move.
js-board-not-connected = Board not connected.
js-board-differs-yours = Your board differs from the game.
js-still-loading = The game is still loading.
js-nothing-to-repeat = Nothing to repeat yet.
js-last-moves = Last moves: { $moves }
js-board-shows-game = Your board shows the game.
js-pieces-at = { $piece }: { $squares }
js-none = none
js-empty = empty
js-last-announcement = Last announcement: { $text }
js-piece-k = king
js-piece-q = queen
js-piece-r = rook
js-piece-b = bishop
js-piece-n = knight
js-piece-p = pawn
js-colored-piece = { $color } { $piece }
js-blind-player = Blind player: { $side }.
js-draw-offered-by = Draw offered by { $side }.
js-running = running
js-flag-claim = { $side }'s time is up: claim the flag fall (D.2.10.5).
js-tactile-not-connected = Tactile board: not connected.
js-tactile-in-sync = Tactile board: shows the game.
js-tactile-differs = Tactile board: differs from the game at { $squares }.
js-alert = Alert: { $alerts }
js-alerts-none = Alerts: none.
js-no-board = no board
js-not-connected = not connected
js-in-sync = in sync
js-differs = differs ({ $squares })
js-table = Table { $table }
js-playing = playing
js-differs-at = differs at { $squares } (marked *)
js-no-differences = no differences
js-square-differs = differs
js-result = Result { $result } ({ $reason }).
js-flag-arbiter = { $side }'s time is up: the flag has fallen once you observe it or it is claimed (6.8).
js-kind = This is a { $kind } game (Appendix A.1, B.1): each time penalty of Articles 7 and 9 is { $minutes } min.
js-illegal-completed = Completed illegal moves: White { $white }, Black { $black } (the second loses the game, 7.5.5).
js-flag-auto = A clock reaching zero ends the game at once.
js-flag-claim-rule = A clock reaching zero ends the game when the fall is claimed.
js-touched = Touched: { $list }.
js-illegal-attempts = Illegal attempts: { $list }.
js-ruling-case = Case: { $case }. Agreed plies: { $plies }.
js-ruling-first = First difference at ply { $ply }: White's sheet { $white }, Black's sheet { $black }.
js-ruling-nothing = (nothing)
js-ruling-agree = The sheets agree.
js-ruling-position = Position to play on: { $fen }
js-ruling-clocks = Clocks: White { $white }, Black { $black } ({ $how }).
js-ruling-proposal = a proposal
js-ruling-recorded = as recorded
js-arbiter-table = Arbiter, table { $table }

## Clocks (assistant, arbiter and opponent pages)
clocks-h = Clocks
js-clock-of = { $side }'s clock
js-clock-to-move = to move
js-clock-low = low time
js-clock-time-up = time is up
js-clock-running = The clock is running.
js-clock-stopped = The clock is stopped.

## The sighted opponent's page (D.2.11)
role-opponent = Opponent
index-opponent = opponent (large text)
opponent-link = Page for a sighted opponent who cannot hear the announcements: the last announcement and the clocks in large text
second-blind-h = The second blind player's link
opponent-title = Table { $table }: announcements and clocks
opponent-said-h = Last announcement
opponent-none-yet = Nothing announced yet.
opponent-new = New
opponent-moves-h = Last moves
opponent-note = Every announcement of the table appears here as it is spoken, numbered; the number and the “New” mark change with each one.
js-opponent-count = Announcement { $number }
js-opponent-earlier = Said before this page was opened
js-players = White: { $white } · Black: { $black }

## Player page: commands as buttons, the board, settings, sound
player-btn-left = Time left
player-btn-used = Time used
player-help-board = go to the board
player-pieces-label = Where are the
player-pieces-btn = Say the squares
player-piece-K = white king
player-piece-Q = white queen
player-piece-R = white rooks
player-piece-B = white bishops
player-piece-N = white knights
player-piece-P = white pawns
player-piece-k = black king
player-piece-q = black queen
player-piece-r = black rooks
player-piece-b = black bishops
player-piece-n = black knights
player-piece-p = black pawns
player-line-label = What stands on file or rank
player-line-btn = Say the squares
player-board-h = Board
player-board-help = The board from your side, one square at a time. Tab into it, then: arrow keys move one square (up is towards your opponent); Home and End go to the ends of the rank, with Ctrl to the corners; 1 to 8 go to that rank; Shift with 1 to 8 goes to files a to h; k, q, r, b, n, p go to the next king, queen, rook, bishop, knight or pawn, with Shift to the previous one; l names the last move's squares; Enter or Space on a piece and then on a square makes that move; Escape goes back to the move box.
player-board-last = Last move's squares
player-board-enter = Go to the board
player-more-h = More questions and settings
player-more-summary = Where pieces are, what stands on a line, how moves are written and typed, the page's language
player-settings-h = Settings
player-style-label = Moves written as
player-style-standard = standard (Nf3)
player-style-long = long, with the square it comes from (Ng1-f3)
player-style-note = For the moves this page writes (last moves, all moves, the board); kept in this browser. The table's spoken announcements keep the table's style.
player-sound-h = Sound
player-sound-label = Sound on this device
player-sound-note = Plays every announcement on this phone or computer, in the table's voice (use headphones). The announcements stay written above for your screen reader either way.
js-you-play-against = You play { $side } against { $name } ({ $other }).
js-no-sound-at-table = No sound at the table: announcements are only written here until it is back.
js-last-move = Last move: { $side } { $move }, from { $from } to { $to }.
js-board-rank = Rank
js-board-square = { $square }, { $piece }
js-board-last-from = last move from here
js-board-last-to = last move to here
js-board-picked = picked
js-board-edge = Edge of the board: { $square } is the last square this way.
js-board-no-piece = No { $piece } on the board.
js-board-only-one = This is the only { $piece }.
js-board-pick-empty = { $square } is empty: pick a piece to move.
js-board-picked-say = { $square }, { $piece }, picked: now the square to move to, Enter again. Escape drops it.
js-board-unpicked = Nothing picked.
js-board-sending = Moving from { $from } to { $to }.
js-board-refused = The move was refused: the reason is in the announcements.
js-board-promotion = Promotion: the move box has the move; type the piece letter (Q, R, B or N) and press Enter.
js-sound-no-voice = the voice is not available
js-sound-loading = Loading the voice…
js-sound-loading-count = Loading the voice: { $done } of { $total } words.
js-sound-on = Sound on: announcements play on this device.
js-sound-off = Sound off on this device.
js-sound-failed = No sound on this device: { $error }
js-sound-stopped = Sound stopped on this device (the browser or the system paused it): switch sound off and on again.

# The competition: rounds on the arbiter's overview.
rounds-h = Rounds
rounds-new-h = A new round
rounds-venue-token = Setting up and starting rounds needs the venue arbiter's link (printed at start-up).
rounds-trf-file = The pairing program's TRF file
rounds-round = Round
rounds-trf-set-up = Set up the round from the file
rounds-start = Start every clock of the round
rounds-trf-download = Download the TRF file with the results
js-round = Round { $round }
js-round-pgn = PGN of round { $round }
js-round-game = Table { $table }: { $white } – { $black }, { $state }
js-game-not-begun = not begun
js-game-under-way = under way
js-game-finished = { $result }
js-round-set-up = Round { $round } set up at { $count } tables.
js-round-unpaired = { $name }: { $why }
js-round-started = Round { $round }: clocks started at { $count } tables.
js-no-rounds = No round has been set up yet.

## Player page: help on request, answers, connection, phone
player-help-h = Commands (help)
player-help-help = this help.
player-answers-h = Answers
player-reader-too = The screen reader reads the announcements too
player-reader-too-note = With the sound on this device, the announcements are shown but not given to your screen reader, so it does not speak over the sound; tick this to hear both.
player-wake-label = Keep the screen on
js-connection-lost-alert = Connection to the server lost. Moves cannot be sent until it is back.
js-connection-back = Connection to the server is back.
js-while-away = While you were away:
js-nothing-missed = Nothing was announced meanwhile.
js-some-missed-lost = Some announcements are lost; type m for all moves.
js-clock-now = Clock: White { $white }, Black { $black }.
js-not-sent = Not sent: { $move }. The server cannot be reached; type the move again when the connection is back.
js-no-answer = No answer from the server: { $move } may not have been made. Listen for the announcement, or type l.
js-not-your-turn = Not your move: { $side } is to move.
js-game-is-over = The game is over: no more moves.
js-refused-illegal = { $move } is not a legal move here.
js-refused-in-check = Your king is in check.
js-refused-unreadable = { $move } is not a move.
js-refused-ambiguous = { $move } fits several moves: { $moves }.
js-wake-on = The screen stays on while this page is shown.
js-wake-off = The screen may turn off.
js-wake-unavailable = This browser cannot keep the screen on for this page (it needs HTTPS).
js-wake-refused = The screen cannot be kept on: { $error }
js-refused-own-piece = { $square } holds a piece of your own: { $piece }.
js-round-is = Round { $round }.
js-new-game = A new game.

## The table cards (/arbiter/cards, card.brf)
cards-title = Table cards
cards-intro = One card per table and person: scan the code with the phone's camera or type the link. Each link is that person's key to their page: give each card only to its person.
cards-print = Print the cards
cards-table = Table { $table }
card-plays-white = plays White
card-plays-black = plays Black
card-brf-link = Your page:
js-cards-need-token = The cards need the venue arbiter's link, the one tactus prints at start-up (it ends in #token=…).
js-cards-failed = The cards could not be loaded: { $error }
js-cards-ready = { $count } cards ready to print.

## The hall check on the arbiter's overview (hall-check.js)
hall-check-h = Hall check
hall-check-run = Check every table
hall-check-caption = Every table's parts: boards, sound, braille display
hall-check-col-part = Part
hall-check-col-result = Result
hall-check-col-again = Check again
js-hall-ok = ready:
js-hall-fail = NOT READY:
js-hall-again = Check table { $table } again
js-hall-checking = Checking every table…
js-hall-checking-one = Checking table { $table }…
js-hall-all-ok = Every part is ready.
js-hall-failed = { $count } parts not ready.
js-hall-table-done = Table { $table } checked.
js-hall-error = The check could not be made: { $error }
js-second-blind-note = For the player of { $side } in this game only (game { $game }, round { $round }): hand it to them. A new game gives a new link, and this one stops working.

## The arbiter's alerts (the table's `alerts[].key`, with its `args`)
js-alert-journal-failing = journal failing: changes are not being recorded ({ $error })
js-alert-board-disconnected = tactile board disconnected
js-alert-board-disconnected-retrying = tactile board disconnected: { $failures } attempts to reach it failed; trying again
js-alert-board-differs = tactile board differs at { $squares }
js-alert-promotion-waiting = promotion waiting for the piece to be named
js-alert-flag-fell = flag fell: { $result }
js-alert-flag-unrecorded = { $side }'s time is up: the flag has fallen, not yet recorded (the journal is failing)
js-alert-flag-claimable = { $side }'s time is up: the flag has fallen once claimed (6.8)
js-alert-illegal-attempts = { $count } illegal move attempt(s)
js-alert-no-sound = no sound at table { $table }: { $error }
js-alert-no-sound-failed = no sound at table { $table }: the sound output failed
js-alert-draw-offered = draw offered by { $side }

## How a game ended (the result's `ending`); { $detail }: the move written with a claim
js-ending-checkmate = checkmate
js-ending-stalemate = stalemate
js-ending-dead_position = dead position
js-ending-fivefold_repetition = fivefold repetition
js-ending-seventy_five_moves = seventy-five-move rule
js-ending-agreement = agreement
js-ending-threefold_repetition = threefold repetition
js-ending-fifty_moves = fifty-move rule
js-ending-resignation = resignation
js-ending-flag_fell = flag fell
js-ending-arbiter = arbiter's decision
js-ending-detail = { $ending }, { $detail }
js-ending-second-illegal = second completed illegal move by { $side } (7.5.5)
js-ending-claimed-written = claimed with { $move } written, not played

## The kind of game (the table's `kind`)
js-kind-standard = standard
js-kind-rapid = rapid
js-kind-blitz = blitz

## Why a listed player has no game in a round set up (`unpaired[].key`)
js-unpaired-not-paired = not paired in round { $round }
js-unpaired-bye = bye
js-unpaired-bye-letter = bye ({ $letter })
js-unpaired-no-colour = paired without a colour in round { $round }: a game not played

# A championship: the player's own commands and seat (issue 33).
player-help-offer = offer a draw
player-help-accept = accept the draw offered to you
player-help-decline = decline it
player-help-resign = resign the game
player-help-standings = the standings
player-btn-offer = Offer a draw
player-btn-accept = Accept the draw
player-btn-decline = Decline the draw
player-btn-standings = Standings
js-standings-you = You are { $place }. with { $points } points.
js-standings-leaders = Leaders: { $list }.
js-no-standings = No standings yet.
js-seat = Round { $round }, board { $board }: you play { $side } against { $name }.
js-no-seat = { $name }: { $why }.
role-own = Player's own link
cards-player = { $name }, player { $rank }

package api

// The codes of the HTTP API's refusals (Refusal.Code), stable for clients
// to translate. Every handler answers with one of these; a refusal's HTTP
// status is given with each.
const (
	// CodeBadRequest (400, 415): the body is not one JSON object of known
	// fields, or a query parameter is not one (a match number, a seat).
	CodeBadRequest = "bad_request"
	// CodeTooLarge (413): the body is over MaxBody.
	CodeTooLarge = "too_large"
	// CodeCrossSite (403): a request that changes something, sent from
	// another site.
	CodeCrossSite = "cross_site"
	// CodeStore (500): the store failed; nothing changed, try again.
	CodeStore = "store"
	// CodeStopping (503): the server is stopping.
	CodeStopping = "stopping"
	// CodeBusy (503): the server holds all the tables it may, or too
	// many answers are being computed; try again later.
	CodeBusy = "busy"
	// CodeClosed (503): the table closed while the request waited for it.
	CodeClosed = "closed"
	// CodeCluster (503): in a cluster, the table's node could not be
	// found or reached, or it just moved; try again.
	CodeCluster = "cluster"
	// CodeGone (503): the client went away before the answer.
	CodeGone = "gone"

	// CodeBadGame (400): no such game.
	CodeBadGame = "bad_game"
	// CodeBadPlayers (400): a number of players the game does not have;
	// Reason "bad_players" with its args.
	CodeBadPlayers = "bad_players"
	// CodeBadOptions (400): options the game refuses; Reason and Args
	// say which (game.ReasonBadOption).
	CodeBadOptions = "bad_options"
	// CodeBadBots (400): a bots list that is not one entry per seat
	// (ReasonBotsLength), or a level the server does not seat
	// (ReasonUnknownBot).
	CodeBadBots = "bad_bots"
	// CodeNoHuman (400): a table of bots alone.
	CodeNoHuman = "no_human"
	// CodeBadTurnSeconds (400): a time per move out of bounds, or none
	// at a rated table.
	CodeBadTurnSeconds = "bad_turn_seconds"
	// CodeBadMemoryAid (400): the memory aid asked for a game without
	// private looks.
	CodeBadMemoryAid = "bad_memory_aid"
	// CodeBadLang (400): a language other than "en" or "fr".
	CodeBadLang = "bad_lang"
	// CodeRatedNeedsAccount (403): a rated table is for signed-in
	// players with a username.
	CodeRatedNeedsAccount = "rated_needs_account"
	// CodeBadName (400): no name left once cleaned, where one is needed
	// (joining a table, creating one without a session: ReasonNameNeeded,
	// a guest, the queue).
	CodeBadName = "bad_name"
	// CodeNameTaken (409): a name that reads like another person's at a
	// table.
	CodeNameTaken = "name_taken"
	// CodeFull (409): no free seat at the table.
	CodeFull = "full"
	// CodeNoTable (404): no such table.
	CodeNoTable = "no_table"
	// CodeBroken (404, 500): the table or match is stored but cannot be
	// played back (a bug, or a store edited by hand).
	CodeBroken = "broken"
	// CodeBadToken (403): the seat token is not one of the table's.
	CodeBadToken = "bad_token"
	// CodeCrowded (503): the table has all the spectators it may.
	CodeCrowded = "crowded"
	// CodeNotOver (409): the match's history is served once it is over.
	CodeNotOver = "not_over"
	// CodeNotFound (404): no such table or match in the history.
	CodeNotFound = "not_found"
	// CodeBadOffset (400): a leaderboard offset that is not a number
	// from 0.
	CodeBadOffset = "bad_offset"
	// CodeNoPlayer (404): no such player.
	CodeNoPlayer = "no_player"
	// CodeDeletedPlayer (404): the player deleted their account.
	CodeDeletedPlayer = "deleted_player"
	// CodeBadQueue (400): a quick-match entry the game cannot play.
	CodeBadQueue = "bad_queue"

	// CodeTooFast (429): more requests of this kind from the address
	// (or player) than it may make; Retry-After says when to try again.
	CodeTooFast = "too_fast"
	// CodeTooFastNetwork (429): more new tables from the network (an
	// IPv4 /24, an IPv6 /48) than it may make.
	CodeTooFastNetwork = "too_fast_network"
	// CodeTooManyWaiting (429): the client's tables waiting for players
	// are as many as it may have.
	CodeTooManyWaiting = "too_many_waiting"
	// CodeTooManyWaitingNetwork (429): the same for the network.
	CodeTooManyWaitingNetwork = "too_many_waiting_network"
	// CodeTooManyTablesNetwork (429): the network holds its share of the
	// tables in memory.
	CodeTooManyTablesNetwork = "too_many_tables_network"
	// CodeTooManyConnects (429): too many WebSockets opened to one table
	// from the network lately.
	CodeTooManyConnects = "too_many_connects"
	// CodeTooManyConns (429): the address holds all the open WebSockets
	// it may.
	CodeTooManyConns = "too_many_conns"
	// CodeTooManyConnsNetwork (429): the network does.
	CodeTooManyConnsNetwork = "too_many_conns_network"
	// CodeTooManyConnsServer (429): the server does.
	CodeTooManyConnsServer = "too_many_conns_server"

	// CodeSignedOut (401): nobody is signed in on this browser.
	CodeSignedOut = "signed_out"
	// CodeBadCredentials (401): a wrong username or password.
	CodeBadCredentials = "bad_credentials"
	// CodeWrongPassword (403): the current password given is wrong.
	CodeWrongPassword = "wrong_password"
	// CodeBadUsername (400): a username that is not 3–20 letters,
	// digits, "_", "-" or ".".
	CodeBadUsername = "bad_username"
	// CodeBadPassword (400): a password shorter than 8 characters or
	// longer than 1 KiB.
	CodeBadPassword = "bad_password"
	// CodeTaken (409): another player has that username.
	CodeTaken = "taken"
	// CodeClaimed (409): this player has a username already.
	CodeClaimed = "claimed"
	// CodeGuest (409): a guest has no password to change.
	CodeGuest = "guest"

	// Friends and notifications (issue 29; packages friend, notify).

	// CodeNeedsAccount (403): friends and notifications are for signed-in
	// players with a username.
	CodeNeedsAccount = "needs_account"
	// CodeSelf (400): a friend request to, or a block of, oneself.
	CodeSelf = "self"
	// CodeNoRequest (404): no friend request from that player to accept.
	CodeNoRequest = "no_request"
	// CodeRequestsFull (409): the player asked has as many friend
	// requests waiting as they may (friend.Config.MaxIncoming); they must
	// answer some first.
	CodeRequestsFull = "requests_full"
	// CodeRequestsTooFast (429): the player asked has been asked by too
	// many players lately; Retry-After says when to try again.
	CodeRequestsTooFast = "requests_too_fast"
	// CodeNotFriends (403): invitations are for friends.
	CodeNotFriends = "not_friends"
	// CodeNotSeated (403): an invitation to a table where the inviter
	// does not sit, or a move or state asked without the seat's token or
	// its signed-in player.
	CodeNotSeated = "not_seated"
	// CodeBadPref (400): a notification kind or channel that does not
	// exist.
	CodeBadPref = "bad_pref"
	// CodeBadAddress (400): not an e-mail address.
	CodeBadAddress = "bad_address"
	// CodeBadSubscription (400): a push subscription whose endpoint is
	// not a push service's https URL, or whose keys are not a browser's.
	CodeBadSubscription = "bad_subscription"
	// CodeMailFailed (503): the mail server refused the mail or could not
	// be reached; try again.
	CodeMailFailed = "mail_failed"

	// Moves over HTTP (POST /api/tables/{id}/moves, issue 29; package
	// table), as the WebSocket's codes of the same names say.

	// CodeNotStarted (409): a move while seats are still free.
	CodeNotStarted = "not_started"
	// CodeOver (409): a move once the match is over.
	CodeOver = "over"
	// CodeStale (409): a move whose n is behind the table's: the
	// position has changed; read it again.
	CodeStale = "stale"
	// CodeBadMove (400): not a move of this game; Reason says why when
	// the engine gives one.
	CodeBadMove = "bad_move"
	// CodeRefused (409): the game's rules refuse the move; Reason and
	// Args say why.
	CodeRefused = "refused"
	// CodeBadCoach (400): the coach asked for at a rated table (reason
	// ReasonRated).
	CodeBadCoach = "bad_coach"
	// CodeNoCoach (409): a hint asked for at a table without the coach
	// (reason ReasonCoachOff) or a rated one (ReasonRated).
	CodeNoCoach = "no_coach"
)

// The reasons the server itself gives (Refusal.Reason), besides those of
// the engines (game.Refusal), which docs/API.md lists too.
const (
	// ReasonNameNeeded: a table created without a session and without a
	// name would have nobody at it (CodeBadName).
	ReasonNameNeeded = "name_needed"
	// ReasonBotsLength: a bots list that is not one entry per seat; args
	// bots (its length) and players (CodeBadBots).
	ReasonBotsLength = "bots_length"
	// ReasonUnknownBot: a bot level the server does not seat; args bot
	// (the level asked for) (CodeBadBots).
	ReasonUnknownBot = "unknown_bot"
	// ReasonTutorialStep: at a tutorial's table (POST /api/tutorials),
	// a move other than the one its step asks for; args step (issue 26).
	ReasonTutorialStep = "tutorial_step"
	// ReasonRated: the coach and its hints are for unrated tables
	// (CodeBadCoach, CodeNoCoach; issue 27).
	ReasonRated = "rated"
	// ReasonCoachOff: a hint at a table created without the coach
	// (CodeNoCoach).
	ReasonCoachOff = "coach_off"
)

// Package game is the contract every Tapis rules engine implements.
//
// A game is fully described by (game, players, options, seed, moves): a State
// is created from a Config and changed only by Apply. Engines are pure: no
// I/O, no goroutines, no clock and no global state, so the same inputs always
// give the same game, whether it is played at a web table, replayed from a
// file or simulated a million times.
//
// The contract follows OpenSpiel's shape: who must act, the legal moves,
// apply, a view per seat (the information state), and Sample, which draws a
// full state from one seat's information for search bots.
package game

import (
	"encoding/json"
)

// Seat numbers a player's place at the table, 0..Players()-1, clockwise.
type Seat int

// Spectator is the seat of someone watching: it is shown public information
// only.
const Spectator Seat = -1

// MaxPlayers bounds every game's table, so that a set of seats fits in Seats.
const MaxPlayers = 8

// Config is everything a game needs to start.
type Config struct {
	Players int
	// Options is the game's options object (RULES.md's [option] fields).
	// Nil or empty means every default; unknown names are an error.
	Options json.RawMessage
	Seed    uint64
	// Stacks optionally fixes the deal of round i+1 with Stacks[i], in the
	// game's stack notation of REPLAY.md. What a stack leaves open comes
	// from Seed.
	Stacks []json.RawMessage
	// Log, when not nil, receives the events of the game's opening (the
	// first deal, the first limit card), as Apply's log receives a move's.
	Log *Log
}

// Game creates states and translates moves to and from their JSON form.
type Game interface {
	// Name is the game's identifier: "cabo", "papayoo", "limits", "dacapo".
	Name() string
	// Players gives the smallest and largest table the game allows.
	Players() (min, max int)
	// Options describes each option the game accepts, with its default.
	Options() []Option
	// New starts a game. It fails on a bad player count, an unknown or
	// out-of-range option, or an impossible stack.
	New(c Config) (State, error)
	// UnmarshalMove decodes a move from the JSON of REPLAY.md. The result
	// says nothing about legality, which depends on the state.
	UnmarshalMove(data []byte) (Move, error)
	// MarshalMove encodes a move as REPLAY.md's JSON.
	MarshalMove(m Move) ([]byte, error)
}

// State is one game in progress. Its methods never block and never do I/O.
type State interface {
	// Players is the number of seats.
	Players() int
	// ToMove is the set of seats that must act now: one seat in turn-based
	// phases, several in simultaneous ones. It is empty once the game is over.
	ToMove() Seats
	// Legal appends to buf the moves seat s may make now and returns the
	// extended buffer. It depends only on what s may know. It appends
	// nothing when s need not act. Callers reuse buf so that playouts do
	// not allocate.
	//
	// A move that is a choice of several cards at once (Papayoo's pass) may
	// be listed as one-card steps that Apply accumulates; Apply then also
	// accepts the whole choice as one move.
	Legal(s Seat, buf []Move) []Move
	// Apply plays m for seat s. An illegal move returns an error that
	// names the reason and leaves the state exactly as it was. When log is
	// not nil, the move's events are appended to it; with a nil log no
	// event is built, which keeps playouts cheap.
	Apply(s Seat, m Move, log *Log) error
	// View is what seat s may see now, ready for encoding/json. Spectator
	// gets the public view. Cards a seat saw once (a peek) are events, not
	// part of the view: remembering is the player's job.
	View(s Seat) any
	// Over reports whether the game has ended.
	Over() bool
	// Result gives the scores so far and, once Over, the winners.
	Result() Result
	// Clone returns an independent copy that plays on exactly as the
	// original would.
	Clone() State
	// Sample returns a full state drawn at random, using r only, from what
	// seat s knows: everything s has seen stays as it is, everything else
	// is redrawn among the possibilities (another seat's choice not yet
	// revealed, such as an unfinished simultaneous pass, included). Two
	// states that look the same to s give the same sample for the same r;
	// the sample's own future randomness comes from r too, never from the
	// original's seed.
	Sample(s Seat, r *RNG) State
	// Reseed replaces the state's future randomness (the shuffles still
	// to come) with seed's, and nothing else. The conformance suite uses
	// it to build two states that differ only in what nobody knows yet,
	// which a seat's sample must not depend on.
	Reseed(seed uint64)
	// Dump shows the whole state, every hidden card included, in the
	// game's own shape, for replays of finished games, tests and audits.
	// Never send it to a player.
	Dump() any
}

// Result is the score of a game so far.
type Result struct {
	// Rounds counts completed rounds (Limits: resolved accusations; Da
	// Capo!: finished games of a match).
	Rounds int `json:"round"`
	// Scores are cumulative, one per seat.
	Scores []int `json:"scores"`
	// RoundScores are the last completed round's, empty before the first.
	RoundScores []int `json:"round_scores"`
	// Winners lists the winning seats once the game is over; ties share.
	Winners []Seat `json:"winners"`
}

// CheckPlayers returns a Refusal naming the game when n is outside [min, max].
func CheckPlayers(g Game, n int) error {
	lo, hi := g.Players()
	if n < lo || n > hi {
		return Refuse(g.Name(), "", ReasonBadPlayers, map[string]any{"players": n, "min": lo, "max": hi},
			"%d players: the game takes %d to %d", n, lo, hi)
	}
	return nil
}

// NewResult builds a Result from a state's fixed arrays, copying them:
// the round scores only once a round is complete, the winners only once
// the game is over. Slices are never nil, so the JSON shows [] not null.
func NewResult(rounds int, scores, roundScores []int, over bool, winners Seats) Result {
	var res Result
	res.Set(rounds, scores, roundScores, over, winners)
	return res
}

// Set makes r what NewResult would return, reusing r's slices: a state's
// ResultTo calls it, so that reading a score after every round allocates
// nothing once r has grown.
func (r *Result) Set(rounds int, scores, roundScores []int, over bool, winners Seats) {
	r.Rounds = rounds
	r.Scores = append(emptyIfNil(r.Scores), scores...)
	r.RoundScores = emptyIfNil(r.RoundScores)[:0]
	if rounds > 0 {
		r.RoundScores = append(r.RoundScores, roundScores...)
	}
	r.Winners = emptyIfNil(r.Winners)[:0]
	if over {
		r.Winners = winners.AppendTo(r.Winners)
	}
}

// emptyIfNil returns s emptied, or an empty non-nil slice (which costs no
// allocation) for nil, so that JSON shows [] rather than null.
func emptyIfNil[T any](s []T) []T {
	if s == nil {
		return []T{}
	}
	return s[:0]
}

// ViewAppender is a State that can write View(s)'s JSON itself, without
// building the view: the server sends every seat its view after every
// move, and encoding/json's reflection over a view was much of that
// message's cost. AppendView appends exactly what json.Marshal(View(s))
// gives.
type ViewAppender interface {
	AppendView(b []byte, s Seat) []byte
}

// ResultWriter is a State that can write its Result over one the caller
// keeps. A simulator that reads the scores at every round's end uses it,
// since Result allocates a fresh Result each time.
type ResultWriter interface {
	// ResultTo sets *r to Result(), reusing r's slices.
	ResultTo(r *Result)
}

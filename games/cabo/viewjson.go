package cabo

import (
	"strconv"

	"tapis/game"
)

// AppendView implements game.ViewAppender: View(s) as encoding/json writes
// it, field for field (viewjson_test.go compares the two), without
// building the View.
func (st *State) AppendView(b []byte, s game.Seat) []byte {
	n := int(st.n)
	if s < 0 || int(s) >= n {
		s = game.Spectator
	}
	round := st.rounds + 1
	if st.Over() {
		round = st.rounds
	}
	b = appendKey(b, '{', "seat", int64(s))
	b = appendKey(b, ',', "players", int64(n))
	b = append(b, `,"options":`...)
	b = appendKey(b, '{', "hand_size", int64(st.opt.HandSize))
	b = appendKey(b, ',', "initial_peek", int64(st.opt.InitialPeek))
	b = append(b, `,"swap_opponents":`...)
	b = strconv.AppendBool(b, st.opt.SwapOpponents)
	b = appendKey(b, ',', "reset_at_100_to", int64(st.opt.ResetAt100To))
	b = appendKey(b, ',', "max_resets", int64(st.opt.MaxResets))
	b = append(b, '}')
	b = appendKey(b, ',', "round", int64(round))
	b = append(b, `,"phase":"`...)
	b = append(b, st.phase.String()...)
	b = append(b, '"')
	b = appendKey(b, ',', "turn", int64(st.turn))
	b = append(b, `,"to_move":`...)
	b = appendSeats(b, st.ToMove())
	b = append(b, `,"peeked":`...)
	b = appendSeats(b, st.peeked)
	b = append(b, `,"slots":[`...)
	for t := 0; t < n; t++ {
		if t > 0 {
			b = append(b, ',')
		}
		b = append(b, '[')
		for i := 0; i < st.opt.HandSize; i++ {
			if i > 0 {
				b = append(b, ',')
			}
			b = strconv.AppendBool(b, st.hands[t][i] != none)
		}
		b = append(b, ']')
	}
	b = append(b, `],"discard":`...)
	if st.nDisc == 0 {
		b = append(b, "null"...) // the View's nil slice
	} else {
		b = appendCards(b, st.discard[:st.nDisc])
	}
	b = appendKey(b, ',', "draw_count", int64(st.nDraw))
	if st.phase == phaseDrawn && s == st.turn {
		b = appendKey(b, ',', "drawn", int64(st.drawn))
	}
	b = appendKey(b, ',', "caller", int64(st.caller))
	b = appendKey(b, ',', "final_turns_left", int64(st.finalLeft))
	b = append(b, `,"scores":`...)
	b = appendInts(b, st.scores[:n])
	b = append(b, `,"resets":`...)
	b = appendInts(b, st.resets[:n])
	if st.rounds > 0 {
		l := &st.last
		b = append(b, `,"last_round":{"hands":[`...)
		for t := 0; t < n; t++ {
			if t > 0 {
				b = append(b, ',')
			}
			b = appendCards(b, l.hands[t][:st.opt.HandSize])
		}
		b = append(b, `],"totals":`...)
		b = appendInts(b, l.totals[:n])
		b = append(b, `,"round_scores":`...)
		b = appendInts(b, st.roundScores[:n])
		b = appendKey(b, ',', "caller", int64(l.caller))
		b = appendKey(b, ',', "kamikaze", int64(l.kamikaze))
		b = append(b, `,"winners":`...)
		b = appendSeats(b, l.winners)
		b = append(b, `,"reset":`...)
		b = appendSeats(b, l.reset)
		b = append(b, '}')
	}
	if st.Over() && !st.winners.Empty() {
		b = append(b, `,"winners":`...)
		b = appendSeats(b, st.winners)
	}
	return append(b, '}')
}

// appendKey appends sep, "key": and v.
func appendKey(b []byte, sep byte, key string, v int64) []byte {
	b = append(b, sep, '"')
	b = append(b, key...)
	b = append(b, '"', ':')
	return strconv.AppendInt(b, v, 10)
}

func appendSeats(b []byte, a game.Seats) []byte {
	b = append(b, '[')
	for i := 0; i < a.Len(); i++ {
		if i > 0 {
			b = append(b, ',')
		}
		b = strconv.AppendInt(b, int64(a.Nth(i)), 10)
	}
	return append(b, ']')
}

func appendCards(b []byte, cs []int8) []byte {
	b = append(b, '[')
	for i, c := range cs {
		if i > 0 {
			b = append(b, ',')
		}
		b = strconv.AppendInt(b, int64(c), 10)
	}
	return append(b, ']')
}

func appendInts[T ~int | ~int8 | ~int16 | ~int32](b []byte, xs []T) []byte {
	b = append(b, '[')
	for i, x := range xs {
		if i > 0 {
			b = append(b, ',')
		}
		b = strconv.AppendInt(b, int64(x), 10)
	}
	return append(b, ']')
}

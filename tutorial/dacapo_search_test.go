package tutorial

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"

	"tapis/game"
	"tapis/games"
)

// TestSearchDacapo looks for a two-player Da Capo! deal with a draw pile
// of three cards (personal piles of 77), so that a hand that cannot be
// refilled, and the move end, come within a few turns. Both seats play
// as the heuristic bot; the script stops at the player's first end, and
// the search keeps a seed where the player has by then built from their
// personal pile, their hand, a helper pile and the opponent's pile,
// played a Joker and had their hand refilled.
func TestSearchDacapo(t *testing.T) {
	if !*search {
		t.Skip("run with -search")
	}
	g := games.Named("dacapo")
	hg := g.(game.HeuristicGame)
	searchSeeds(t, "dacapo", 20000, func(seed uint64) (*Script, bool) { return dacapoScript(t, g, hg, seed) })
}

// dcEvent is what the Da Capo! search reads of an event.
type dcEvent struct {
	Type      string
	Seat      int
	From      string
	Card      json.RawMessage
	Pile      *int
	Value     int
	Index     *int
	Owner     *int
	Cards     []json.RawMessage
	Completed bool
}

func dcCard(raw json.RawMessage) words {
	if string(raw) == `"J"` {
		return words{"a Joker", "un Joker"}
	}
	return words{"the " + string(raw), "le " + string(raw)}
}

// pileSize makes the draw pile 165 - 2×(77+4) = 3 cards: a hand that
// cannot be refilled comes soon (and with 78, the stalemate rule ends the
// game first).
const pileSize = 77

func dacapoScript(t *testing.T, g game.Game, hg game.HeuristicGame, seed uint64) (*Script, bool) {
	const players = 2
	opts := json.RawMessage(fmt.Sprintf(`{"pile_size":%d}`, pileSize))
	var log game.Log
	st, err := g.New(game.Config{Players: players, Options: opts, Seed: seed, Log: &log})
	if err != nil {
		t.Fatal(err)
	}
	ps := heuristics(hg, players, seed)
	var mine []dcEvent // the player's own moves' events and draws
	deliver := func() {
		tell(ps, &log, func(e game.Event) {
			js, _ := json.Marshal(e.Data)
			var x dcEvent
			json.Unmarshal(js, &x)
			if x.Seat == Seat && e.To.Has(Seat) {
				mine = append(mine, x)
			}
		})
	}
	deliver()
	var moves []Move
	shown := map[string]bool{} // the kinds of step explained once already
	refilled := false
	told := 0 // the player's events already told by a step
	drawnWords := func(n int) words {
		cards := words{fmt.Sprintf("%d cards", n), fmt.Sprintf("%d cartes", n)}
		if n == 1 {
			cards = words{"1 card", "1 carte"}
		}
		if !refilled {
			return words{fmt.Sprintf("You drew %s: your hand is refilled to four at the start of each turn, and at once when it empties during one, as long as the draw pile lasts. ", cards.en),
				fmt.Sprintf("Vous avez pioché %s : votre main est complétée à quatre au début de chaque tour, et aussitôt si elle se vide pendant le tour, tant que la pioche dure. ", cards.fr)}
		}
		return words{fmt.Sprintf("You drew %s. ", cards.en), fmt.Sprintf("Vous avez pioché %s. ", cards.fr)}
	}
	for len(moves) < 400 {
		s := int(st.ToMove().List()[0])
		gm := ps[s].Choose(game.KnowledgeOf(st, game.Seat(s)))
		js, _ := g.MarshalMove(gm)
		before := len(mine)
		if err := st.Apply(game.Seat(s), gm, &log); err != nil {
			t.Fatal(err)
		}
		deliver()
		m := Move{Seat: s, Move: js}
		if s != Seat {
			moves = append(moves, m)
			if st.Over() {
				return nil, false
			}
			continue
		}
		// What the player drew since the last step, told before this one;
		// then what this move did.
		drew := 0
		for _, e := range mine[told:before] {
			if e.Type == "draw" {
				drew += len(e.Cards)
			}
		}
		var did dcEvent
		for _, e := range mine[before:] {
			if e.Type == "build" || e.Type == "helper" || e.Type == "end" {
				did = e
			}
		}
		told = before + 1
		w, point := dacapoStep(did, shown)
		if drew > 0 {
			pre := drawnWords(drew)
			refilled = true
			w = words{pre.en + w.en, pre.fr + w.fr}
		}
		if len(shown) == 1 || len(shown) == 2 && shown["joker"] {
			// The first step: what the game is, whatever it does.
			if did.Type != "build" {
				return nil, false
			}
			w = words{"Welcome to Da Capo! Empty your personal pile, whose top card is face up, and you win. Building piles go up from 1 to 10, one value at a time, each started by a 1 or a Joker. " + w.en,
				"Bienvenue à Da Capo! Videz votre pile personnelle, dont la carte du dessus est visible, et vous gagnez. Les piles de construction montent de 1 à 10, une valeur à la fois, chacune commencée par un 1 ou un Joker. " + w.fr}
		}
		m.Step = &Step{Point: point, Text: w.text()}
		moves = append(moves, m)
		if did.Type == "end" {
			break
		}
		if st.Over() {
			return nil, false
		}
	}
	for _, k := range []string{"stock", "hand", "helper", "opponent", "joker", "helper-move", "end"} {
		if !shown[k] {
			return nil, false
		}
	}
	if !refilled || len(moves) > 160 {
		return nil, false
	}
	if !st.Over() || !slices.Contains(st.Result().Winners, Seat) {
		return nil, false
	}
	// The draw pile is out and nobody can play on: the stalemate rule
	// ends the game, which the end says.
	end := words{
		"Your hand was empty and nothing was left to draw, so you ended your turn; with the draw pile out and a whole round without a personal card played, the game ends, and the fewest cards left in a personal pile wins: you. That is all of Da Capo!: each turn your hand is refilled to four, you build from your personal pile, your hand, your helper piles and your opponents' personal piles, Jokers fill any gap, a pile that reaches 10 is set aside, and a card on a helper pile ends the turn. The first to empty their personal pile wins. Play again against the bot, or start a real game.",
		"Votre main était vide et il ne restait rien à piocher : vous avez donc terminé votre tour ; la pioche épuisée et tout un tour passé sans carte personnelle jouée, la partie s'arrête, et celui dont la pile personnelle a le moins de cartes gagne : vous. Voilà tout Da Capo! : à chaque tour votre main est complétée à quatre, vous construisez depuis votre pile personnelle, votre main, vos piles d'aide et les piles personnelles adverses, les Jokers comblent les trous, une pile qui atteint 10 est mise de côté, et une carte posée sur une pile d'aide termine le tour. Le premier à vider sa pile personnelle gagne. Rejouez contre le robot, ou lancez une vraie partie.",
	}
	return &Script{Game: "dacapo", Players: players, Options: opts, Seed: seed, Moves: moves, End: end.text()}, true
}

// dacapoStep is the words and the point of a step that does what did
// tells: a kind's first step explains it, the later ones only say it.
func dacapoStep(did dcEvent, shown map[string]bool) (words, string) {
	c := dcCard(did.Card)
	pile := 0
	if did.Pile != nil {
		pile = *did.Pile + 1
	}
	index := 0
	if did.Index != nil {
		index = *did.Index
	}
	first := func(k string) bool { f := !shown[k]; shown[k] = true; return f }
	var w words
	point := ""
	onto := words{fmt.Sprintf(" onto building pile %d", pile), fmt.Sprintf(" sur la pile de construction %d", pile)}
	if did.Value == 1 {
		onto = words{fmt.Sprintf(" to start building pile %d", pile), fmt.Sprintf(" pour commencer la pile de construction %d", pile)}
	}
	switch {
	case did.Type == "end":
		first("end")
		return words{"Your hand is empty and the draw pile too: nothing can refill it. You may still build from your piles, but here you stop: press End turn.",
			"Votre main est vide, et la pioche aussi : rien ne peut la compléter. Vous pourriez encore construire depuis vos piles, mais ici vous arrêtez : appuyez sur Finir le tour."}, "[data-action=end]"
	case did.Type == "helper":
		point = fmt.Sprintf(`[data-src=hand][data-card="%s"]`, strings.Trim(string(did.Card), `"`))
		if first("helper-move") {
			w = words{fmt.Sprintf("To end your turn, put a card of your hand on one of your helper piles: %s on helper pile %d. A helper pile's top card can be built on a later turn. Choose the card, then the helper pile.", c.en, index+1),
				fmt.Sprintf("Pour finir votre tour, posez une carte de votre main sur une de vos piles d'aide : %s sur la pile d'aide %d. La carte du dessus d'une pile d'aide pourra servir à un tour suivant. Choisissez la carte, puis la pile d'aide.", c.fr, index+1)}
		} else {
			w = words{fmt.Sprintf("End your turn: %s on helper pile %d.", c.en, index+1), fmt.Sprintf("Finissez votre tour : %s sur la pile d'aide %d.", c.fr, index+1)}
		}
		return w, point
	}
	joker := string(did.Card) == `"J"`
	switch did.From {
	case "stock":
		point = "[data-src=stock]"
		if first("stock") {
			w = words{fmt.Sprintf("Play the top of your personal pile, %s,%s: choose it, then the building pile.", c.en, onto.en),
				fmt.Sprintf("Jouez le dessus de votre pile personnelle, %s,%s : choisissez-le, puis la pile de construction.", c.fr, onto.fr)}
		} else {
			w = words{fmt.Sprintf("Your personal pile's top, %s,%s: each one brings you nearer to winning.", c.en, onto.en), fmt.Sprintf("Le dessus de votre pile personnelle, %s,%s : chacune vous rapproche de la victoire.", c.fr, onto.fr)}
		}
	case "hand":
		point = fmt.Sprintf(`[data-src=hand][data-card="%s"]`, strings.Trim(string(did.Card), `"`))
		if first("hand") {
			w = words{fmt.Sprintf("Cards from your hand build too: play %s%s. Choose it, then the building pile.", c.en, onto.en), fmt.Sprintf("Les cartes de votre main construisent aussi : jouez %s%s. Choisissez-la, puis la pile de construction.", c.fr, onto.fr)}
		} else {
			w = words{fmt.Sprintf("From your hand, %s%s.", c.en, onto.en), fmt.Sprintf("De votre main, %s%s.", c.fr, onto.fr)}
		}
	case "helper":
		point = fmt.Sprintf(`[data-src=helper][data-index="%d"]`, index)
		if first("helper") {
			w = words{fmt.Sprintf("The top card of a helper pile builds too: play %s from helper pile %d%s.", c.en, index+1, onto.en), fmt.Sprintf("Le dessus d'une pile d'aide construit aussi : jouez %s de la pile d'aide %d%s.", c.fr, index+1, onto.fr)}
		} else {
			w = words{fmt.Sprintf("From helper pile %d, %s%s.", index+1, c.en, onto.en), fmt.Sprintf("De la pile d'aide %d, %s%s.", index+1, c.fr, onto.fr)}
		}
	case "opponent":
		point = fmt.Sprintf(`[data-src=opponent][data-seat="%d"]`, *did.Owner)
		if first("opponent") {
			w = words{fmt.Sprintf("You may also build with the top of an opponent's personal pile: play Bot %d's %s%s. Mind that it empties their pile too, bringing them nearer to winning: do it when it lets you play on.", *did.Owner+1, string(did.Card), onto.en),
				fmt.Sprintf("Vous pouvez aussi construire avec le dessus de la pile personnelle d'un adversaire : jouez le %s de Robot %d%s. Attention : cela vide aussi sa pile et le rapproche de la victoire ; faites-le quand cela vous permet de continuer.", string(did.Card), *did.Owner+1, onto.fr)}
		} else {
			w = words{fmt.Sprintf("Bot %d's top card, %s%s.", *did.Owner+1, c.en, onto.en), fmt.Sprintf("Le dessus de la pile de Robot %d, %s%s.", *did.Owner+1, c.fr, onto.fr)}
		}
	}
	if joker && first("joker") {
		w.en += fmt.Sprintf(" A Joker takes whatever value the pile needs: here, %d.", did.Value)
		w.fr += fmt.Sprintf(" Un Joker prend la valeur dont la pile a besoin : ici, %d.", did.Value)
	}
	if did.Completed && first("completed") {
		w.en += " The pile reaches 10: it is set aside, and its place is free for a new pile."
		w.fr += " La pile atteint 10 : elle est mise de côté, et sa place est libre pour une nouvelle pile."
	}
	return w, point
}

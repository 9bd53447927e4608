package tutorial

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"tapis/game"
	"tapis/games"
)

var colours = []string{"red", "blue", "purple", "yellow", "green"}
var colourFR = map[string]string{"red": "rouge", "blue": "bleu", "purple": "violet", "yellow": "jaune", "green": "vert"}

// cardsOf says "n <colour> cards" in both languages (French colours agree
// with "carte").
func cardsOf(n int, c string) words {
	fem := map[string]string{"red": "rouge", "blue": "bleue", "purple": "violette", "yellow": "jaune", "green": "verte"}[c]
	switch n {
	case 0:
		return words{fmt.Sprintf("no %s card", c), "aucune carte " + fem}
	case 1:
		return words{fmt.Sprintf("1 %s card", c), "1 carte " + fem}
	}
	return words{fmt.Sprintf("%d %s cards", n, c), fmt.Sprintf("%d cartes %ss", n, fem)}
}

// limitsDeal is what the Limits search reads of a state (limits' Dump).
type limitsDeal struct {
	Phase  string     `json:"phase"`
	Turn   int        `json:"turn"`
	Hands  [][]string `json:"hands"`
	Hidden [][]string `json:"hidden"`
	Pile   []string   `json:"pile"`
	PileBy []int      `json:"pile_by"`
}

// TestSearchLimits looks for a three-player Limits deal where, in its
// first round, the player hides a card, leads and places safely, gets
// four cards of a colour and exchanges them, then accuses a bot rightly;
// the bots play as the heuristic bot, except that they accuse nobody
// first. It writes the script with its steps' words.
func TestSearchLimits(t *testing.T) {
	if !*search {
		t.Skip("run with -search")
	}
	g := games.Named("limits")
	hg := g.(game.HeuristicGame)
	searchSeeds(t, "limits", 20000, func(seed uint64) (*Script, bool) { return limitsScript(t, g, hg, seed) })
}

func count(cs []string, c string) int {
	n := 0
	for _, x := range cs {
		if x == c {
			n++
		}
	}
	return n
}

func limitsScript(t *testing.T, g game.Game, hg game.HeuristicGame, seed uint64) (*Script, bool) {
	const players = 3
	var log game.Log
	st, err := g.New(game.Config{Players: players, Seed: seed, Log: &log})
	if err != nil {
		t.Fatal(err)
	}
	ps := heuristics(hg, players, seed)
	var base []*int
	deliver := func() {
		tell(ps, &log, func(e game.Event) {
			js, _ := json.Marshal(e.Data)
			var x struct {
				Type string
				Base []*int
			}
			json.Unmarshal(js, &x)
			if x.Type == "round" && base == nil {
				base = x.Base
			}
		})
	}
	deliver()
	dump := func() limitsDeal {
		var d limitsDeal
		js, _ := json.Marshal(st.Dump())
		json.Unmarshal(js, &d)
		return d
	}
	limitOf := func(c string) (int, bool) { // base limit; false: X
		for i, x := range colours {
			if x == c && base[i] != nil {
				return *base[i], true
			}
		}
		return 0, false
	}
	var moves []Move
	apply := func(s int, js string, step *Step) bool {
		gm, err := g.UnmarshalMove([]byte(js))
		if err == nil {
			err = st.Apply(game.Seat(s), gm, &log)
		}
		if err != nil {
			return false
		}
		moves = append(moves, Move{Seat: s, Move: json.RawMessage(js), Step: step})
		deliver()
		return true
	}
	var limitsEN, limitsFR []string
	for i, c := range colours {
		if base[i] == nil {
			limitsEN = append(limitsEN, c+" no limit")
			limitsFR = append(limitsFR, colourFR[c]+" sans limite")
		} else {
			limitsEN = append(limitsEN, fmt.Sprintf("%s %d", c, *base[i]))
			limitsFR = append(limitsFR, fmt.Sprintf("%s %d", colourFR[c], *base[i]))
		}
	}
	// Hide: a card of the colour the player holds fewest of.
	d := dump()
	hand := d.Hands[Seat]
	hide := ""
	for _, c := range hand {
		if hide == "" || count(hand, c) < count(hand, hide) {
			hide = c
		}
	}
	if _, ok := limitOf(hide); !ok {
		return nil, false // hiding a colour without a limit teaches nothing
	}
	apply(Seat, fmt.Sprintf(`{"type":"hide","cards":[%q]}`, hide), &Step{Point: fmt.Sprintf(`.lim-hand [data-card=%q]`, hide), Text: words{
		fmt.Sprintf("Welcome to Limits! Each round a limit card says how many cards of each colour the active pile may hold: %s. First everyone hides a card face down, at the same time: each hidden card raises the limit of its colour by one, and only its owner knows it. Hide a %s card: choose it, then press Hide.", strings.Join(limitsEN, ", "), hide),
		fmt.Sprintf("Bienvenue à Limits ! À chaque manche, une carte limite dit combien de cartes de chaque couleur la pile active peut contenir : %s. D'abord, chacun cache une carte face cachée, en même temps : chaque carte cachée relève d'un la limite de sa couleur, et seul son propriétaire la connaît. Cachez une carte %s : choisissez-la, puis appuyez sur Cacher.", strings.Join(limitsFR, ", "), colourFR[hide]),
	}.text()})
	for s := 1; s < players; s++ {
		gm := ps[s].Choose(game.KnowledgeOf(st, game.Seat(s)))
		js, _ := g.MarshalMove(gm)
		if !apply(s, string(js), nil) {
			t.Fatalf("seed %d: bot hide %s", seed, js)
		}
	}
	exchanged, accused, placed := false, false, 0
	var accusation struct {
		suspect, count, limit, hidden int
		colour                        string
	}
	for turns := 0; !accused && turns < 40; turns++ {
		d = dump()
		s := d.Turn
		if s != Seat {
			gm := ps[s].Choose(game.KnowledgeOf(st, game.Seat(s)))
			js, _ := g.MarshalMove(gm)
			if strings.Contains(string(js), `"accuse"`) {
				// The bots leave the first accusation to the player.
				c := d.Hands[s][0]
				js = []byte(fmt.Sprintf(`{"type":"place","card":%q}`, c))
			}
			if !apply(s, string(js), nil) {
				return nil, false
			}
			continue
		}
		hand = d.Hands[Seat]
		var four string
		for _, c := range colours {
			if count(hand, c) >= 4 {
				four = c
			}
		}
		// The pile's count of colour c up to seat k's last card.
		upTo := func(k int, c string) (int, string) {
			last := -1
			for i, by := range d.PileBy {
				if by == k {
					last = i
				}
			}
			if last < 0 {
				return 0, ""
			}
			return count(d.Pile[:last+1], c), d.Pile[last]
		}
		switch {
		case four != "" && !exchanged && placed > 0:
			exchanged = apply(Seat, fmt.Sprintf(`{"type":"exchange","color":%q}`, four), &Step{Point: fmt.Sprintf(`[data-action=exchange][data-color=%q]`, four), Text: words{
				fmt.Sprintf("You hold %s: exchange them! You show them, draw four new cards and score +1; two of the four go onto the active pile, the other two on top of the draw pile, so you know your next two draws. Press Exchange.", cardsOf(4, four).en),
				fmt.Sprintf("Vous avez %s : échangez-les ! Vous les montrez, piochez quatre nouvelles cartes et marquez +1 ; deux des quatre vont sur la pile active, les deux autres sur la pioche, et vous savez donc ce que vous piocherez ensuite. Appuyez sur Échanger.", cardsOf(4, four).fr),
			}.text()})
			if !exchanged {
				return nil, false
			}
			continue
		case exchanged:
			for k := 1; k < players; k++ {
				_, c := upTo(k, "")
				if c == "" {
					continue
				}
				n, _ := upTo(k, c)
				l, ok := limitOf(c)
				own := count(d.Hidden[Seat], c)
				if !ok || n <= l+own+1 {
					continue
				}
				hidden := 0
				for _, h := range d.Hidden {
					hidden += count(h, c)
				}
				if n <= l+hidden {
					return nil, false // a wrong accusation: not this seed
				}
				accusation.suspect, accusation.count, accusation.limit, accusation.hidden, accusation.colour = k, n, l, hidden, c
				who := seatWords(k)
				ownEN, ownFR := "you hid none", "vous n'en avez caché aucune"
				if own > 0 {
					ownEN, ownFR = fmt.Sprintf("you hid %d", own), fmt.Sprintf("vous en avez caché %d", own)
				}
				sure := words{fmt.Sprintf("unless both hid %s, that is over the limit", c), fmt.Sprintf("à moins que tous deux aient caché du %s, c'est trop", colourFR[c])}
				if n > l+own+players-1 {
					sure = words{fmt.Sprintf("even if both hid %s, that is over the limit", c), fmt.Sprintf("même s'ils avaient caché tous deux du %s, c'est trop", colourFR[c])}
				}
				cw := cardsOf(n, c)
				accused = apply(Seat, fmt.Sprintf(`{"type":"accuse","seat":%d}`, k), &Step{Point: fmt.Sprintf(`button.lim-opp[data-seat="%d"]`, k), Text: words{
					fmt.Sprintf("Time to accuse. %s's last card was %s, and the pile holds %s up to it. The limit card allows %d, %s, and the others hid one card each: %s. Accuse %s: choose their place, then press Accuse. If the pile is over, they take the limit card (−2) and you score +1; if not, you take it and they score +1.", who.en, c, cw.en, l, ownEN, sure.en, who.en),
					fmt.Sprintf("C'est le moment d'accuser. La dernière carte de %s était %s, et la pile contient %s jusqu'à elle. La carte limite en permet %d, %s, et les autres ont caché une carte chacun : %s. Accusez %s : choisissez sa place, puis appuyez sur Accuser. Si la pile dépasse, il prend la carte limite (−2) et vous marquez +1 ; sinon, c'est vous qui la prenez et lui qui marque +1.", who.fr, colourFR[c], cw.fr, l, ownFR, sure.fr, who.fr),
				}.text()})
				if !accused {
					return nil, false
				}
				break
			}
			if accused {
				continue
			}
		}
		// Place: a colour still under its limit, the one held most.
		best, margin := "", -99
		for _, c := range hand {
			n, _ := upTo(-1, c)
			n = count(d.Pile, c)
			l, ok := limitOf(c)
			m := 99
			if ok {
				m = l + count(d.Hidden[Seat], c) - n - 1
			}
			if c == four {
				m = -50 // kept for the exchange
			}
			if m > margin || m == margin && count(hand, c) > count(hand, best) {
				best, margin = c, m
			}
		}
		if best == "" || margin < 0 {
			return nil, false
		}
		n := count(d.Pile, best)
		l, ok := limitOf(best)
		var w words
		if placed == 0 {
			w = words{"You lead this round: start the active pile with a card, then you draw one. ", "Vous menez cette manche : commencez la pile active avec une carte, puis piochez-en une. "}
		} else {
			w = words{"Place a card on the active pile, then you draw one. ", "Posez une carte sur la pile active, puis piochez-en une. "}
		}
		one := cardsOf(1, best)
		if ok {
			cw := cardsOf(n, best)
			w.en += fmt.Sprintf("Play a %s card: the pile holds %s, the limit card allows %d, and hidden cards may raise it. Stay under the limit: an accusation of you would then fail.", best, cw.en, l)
			w.fr += fmt.Sprintf("Jouez une %s : la pile contient %s, la carte limite en permet %d, et les cartes cachées peuvent relever la limite. Restez dessous : une accusation contre vous échouerait.", strings.TrimPrefix(one.fr, "1 "), cw.fr, l)
		} else {
			w.en += fmt.Sprintf("Play a %s card: this round %s has no limit, so it is always safe.", best, best)
			w.fr += fmt.Sprintf("Jouez une %s : cette manche, le %s n'a pas de limite, c'est donc sans risque.", strings.TrimPrefix(one.fr, "1 "), colourFR[best])
		}
		if !apply(Seat, fmt.Sprintf(`{"type":"place","card":%q}`, best), &Step{Point: fmt.Sprintf(`.lim-hand [data-card=%q]`, best), Text: w.text()}) {
			return nil, false
		}
		placed++
	}
	if !accused || !exchanged || placed < 2 || len(moves) > 40 {
		return nil, false
	}
	a := accusation
	who := seatWords(a.suspect)
	end := words{
		fmt.Sprintf("Every hidden card is revealed: %s's limit was %d, %d on the card plus %d hidden, and the pile held %s up to %s's last one: over. %s takes the limit card, worth −2, and you score +1. Then everyone takes back their hidden card, the pile goes under the draw pile, hands are refilled and a new limit card is turned up. The game ends when the last limit card is taken; the highest score wins. You now know every rule of Limits: play on against the bots, or start a real game.",
			a.colour, a.limit+a.hidden, a.limit, a.hidden, cardsOf(a.count, a.colour).en, who.en, who.en),
		fmt.Sprintf("Toutes les cartes cachées sont révélées : la limite du %s était %d, %d sur la carte plus %s, et la pile contenait %s jusqu'à la dernière de %s : c'est trop. %s prend la carte limite, qui vaut −2, et vous marquez +1. Ensuite chacun reprend sa carte cachée, la pile passe sous la pioche, les mains sont complétées et une nouvelle carte limite est retournée. La partie s'arrête quand la dernière carte limite est prise ; le plus haut score gagne. Vous connaissez maintenant toutes les règles de Limits : continuez contre les robots, ou lancez une vraie partie.",
			colourFR[a.colour], a.limit+a.hidden, a.limit, map[bool]string{true: fmt.Sprintf("%d cachée", a.hidden), false: fmt.Sprintf("%d cachées", a.hidden)}[a.hidden <= 1], cardsOf(a.count, a.colour).fr, who.fr, who.fr),
	}
	return &Script{Game: "limits", Players: players, Seed: seed, Moves: moves, End: end.text()}, true
}

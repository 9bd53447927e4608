package tutorial

import (
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"sort"
	"strconv"
	"strings"
	"testing"

	"tapis/game"
	"tapis/games"
	"tapis/games/papayoo"
)

// write, with -search, writes the script a search found into scripts/.
var write = flag.Bool("write", false, "with -search: write the script found into scripts/")

// pyCard is a Papayoo card read from its name ("S7", "P20").
type pyCard struct {
	name string
	suit byte
	n    int
}

func readCard(name string) pyCard {
	n, _ := strconv.Atoi(name[1:])
	return pyCard{name, name[0], n}
}

// words are a text's two languages, built together.
type words struct{ en, fr string }

func (w words) text() Text { return Text{EN: w.en, FR: w.fr} }

var suitEN = map[byte]string{'S': "spades", 'H': "hearts", 'D': "diamonds", 'C': "clubs", 'P': "Payoo cards"}
var suitFR = map[byte]string{'S': "pique", 'H': "cœur", 'D': "carreau", 'C': "trèfle", 'P': "Payoo"}

func (c pyCard) words() words {
	if c.suit == 'P' {
		return words{fmt.Sprintf("the Payoo %d", c.n), fmt.Sprintf("le Payoo %d", c.n)}
	}
	return words{fmt.Sprintf("the %d of %s", c.n, suitEN[c.suit]), fmt.Sprintf("le %d de %s", c.n, suitFR[c.suit])}
}

// points is what a card scores, pap being the round's Papayoo.
func (c pyCard) points(pap string) int {
	switch {
	case c.name == pap:
		return 40
	case c.suit == 'P':
		return c.n
	}
	return 0
}

func seatWords(s int) words {
	if s == Seat {
		return words{"you", "vous"}
	}
	return words{fmt.Sprintf("Bot %d", s+1), fmt.Sprintf("Robot %d", s+1)}
}

func list(cs []pyCard) words {
	var en, fr []string
	for _, c := range cs {
		w := c.words()
		en, fr = append(en, w.en), append(fr, w.fr)
	}
	join := func(xs []string, and string) string {
		if len(xs) < 2 {
			return strings.Join(xs, "")
		}
		return strings.Join(xs[:len(xs)-1], ", ") + and + xs[len(xs)-1]
	}
	return words{join(en, " and "), join(fr, " et ")}
}

// TestSearchPapayoo looks for a four-player Papayoo deal where the
// player, passing their highest Payoo cards and then playing as the
// heuristic bot would (the others are heuristic bots), follows suit, is
// void in a suit led and gets rid of the Papayoo or a Payoo card there,
// and takes the fewest points of the round. It writes the script with
// its steps' words, made from what the player sees at each step.
func TestSearchPapayoo(t *testing.T) {
	if !*search {
		t.Skip("run with -search")
	}
	g := games.Named("papayoo")
	hg := g.(game.HeuristicGame)
	searchSeeds(t, "papayoo", 3000, func(seed uint64) (*Script, bool) { return papayooScript(t, g, hg, seed) })
}

// heuristics are the heuristic bots of n seats, seeded from seed.
func heuristics(hg game.HeuristicGame, n int, seed uint64) []game.Player {
	ps := make([]game.Player, n)
	for i := range ps {
		ps[i] = hg.Heuristic(game.Seat(i), seed*16+uint64(i))
	}
	return ps
}

// tell gives each player the events of log it may see, and each event to
// seen, then empties log.
func tell(ps []game.Player, log *game.Log, seen func(game.Event)) {
	for _, e := range log.Events {
		for i, p := range ps {
			if e.To.Has(game.Seat(i)) {
				p.Observe(e)
			}
		}
		seen(e)
	}
	log.Reset()
}

// searchSeeds tries seeds from 1 below max until build makes a script
// of one, and writes it to scripts/<name>.json with -write.
func searchSeeds(t *testing.T, name string, max uint64, build func(seed uint64) (*Script, bool)) {
	t.Helper()
	for seed := uint64(1); seed < max; seed++ {
		sc, ok := build(seed)
		if !ok {
			continue
		}
		out, _ := json.MarshalIndent(sc, "", " ")
		fmt.Printf("seed %d\n", seed)
		if *write {
			if err := os.WriteFile("scripts/"+name+".json", append(out, '\n'), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		return
	}
	t.Fatal("no seed")
}

func papayooScript(t *testing.T, g game.Game, hg game.HeuristicGame, seed uint64) (*Script, bool) {
	const players = 4
	var log game.Log
	st, err := g.New(game.Config{Players: players, Seed: seed, Log: &log})
	if err != nil {
		t.Fatal(err)
	}
	ps := heuristics(hg, players, seed)
	type ev struct {
		Type   string
		Seat   int
		Card   string
		Cards  []string
		Suit   string
		Points *int
	}
	var evs []ev
	deliver := func() {
		tell(ps, &log, func(e game.Event) {
			if e.To.Has(Seat) {
				js, _ := json.Marshal(e.Data)
				var x ev
				json.Unmarshal(js, &x)
				evs = append(evs, x)
			}
		})
	}
	deliver()
	var hand []pyCard
	for _, e := range evs {
		if e.Type == "hand" {
			for _, c := range e.Cards {
				hand = append(hand, readCard(c))
			}
		}
	}
	if len(hand) != 15 {
		t.Fatalf("seed %d: a hand of %d", seed, len(hand))
	}
	// The player's pass: the highest Payoo cards, then the highest others.
	sorted := append([]pyCard(nil), hand...)
	sort.Slice(sorted, func(i, j int) bool {
		a, b := sorted[i], sorted[j]
		if (a.suit == 'P') != (b.suit == 'P') {
			return a.suit == 'P'
		}
		return a.n > b.n
	})
	pass := sorted[:5]
	payoos := 0
	for _, c := range pass {
		if c.suit == 'P' {
			payoos++
		}
	}
	if payoos < 3 {
		return nil, false
	}
	var moves []Move
	add := func(s int, gm game.Move, step *Step) {
		js, err := g.MarshalMove(gm)
		if err != nil {
			t.Fatal(err)
		}
		moves = append(moves, Move{Seat: s, Move: js, Step: step})
	}
	var set uint64
	var names []string
	for _, c := range pass {
		names = append(names, c.name)
	}
	pm, _ := g.UnmarshalMove([]byte(fmt.Sprintf(`{"type":"pass","cards":%s}`, mustJSON(names))))
	_ = set
	pw := list(pass)
	passStep := &Step{Point: "#hand", Text: words{
		"Welcome to Papayoo! The aim is to take as few points as possible. Points are in the Payoo cards, the fifth suit, each worth its number, and in the Papayoo, a 7 worth 40. First everyone passes 5 cards to their left neighbour, at the same time: give away the cards that would cost you. Choose " + pw.en + ", then press the Pass button.",
		"Bienvenue à Papayoo ! Le but : ramasser le moins de points possible. Les points sont dans les Payoo, la cinquième couleur, qui valent leur numéro, et dans le Papayoo, un 7 qui vaut 40. D'abord, chacun passe 5 cartes à son voisin de gauche, en même temps : donnez les cartes qui vous coûteraient. Choisissez " + pw.fr + ", puis appuyez sur le bouton de passe.",
	}.text()}
	if err := st.Apply(Seat, pm, &log); err != nil {
		t.Fatalf("seed %d: pass: %v", seed, err)
	}
	add(Seat, pm, passStep)
	deliver()
	// The bots pass, one card at a time as their heuristic chooses, each
	// pass written as one move.
	for s := 1; s < players; s++ {
		var set uint64
		for st.ToMove().Has(game.Seat(s)) {
			gm := ps[s].Choose(game.KnowledgeOf(st, game.Seat(s)))
			_, cards := papayoo.MoveKind(gm)
			set |= cards
			if err := st.Apply(game.Seat(s), gm, &log); err != nil {
				t.Fatal(err)
			}
			deliver()
		}
		add(s, papayoo.PassMove(set), nil)
	}
	// The die and what the player received.
	var pap string
	var received []pyCard
	for _, e := range evs {
		switch e.Type {
		case "die":
			pap = e.Card
		case "received":
			for _, c := range e.Cards {
				received = append(received, readCard(c))
			}
		}
	}
	papw := readCard(pap)
	rw := list(received)
	context := words{
		fmt.Sprintf("The die rolled %s: %s is this round's Papayoo, worth 40 points. Bot 4 passed you %s. ", suitEN[papw.suit], papw.words().en, rw.en),
		fmt.Sprintf("Le dé a donné %s : %s est le Papayoo de la manche, il vaut 40 points. Robot 4 vous a passé %s. ", suitFR[papw.suit], papw.words().fr, rw.fr),
	}
	seen := len(evs)
	var trick []pyCard
	var trickBy []int
	follows, dumps := 0, 0
	for st.Result().Rounds == 0 {
		s := int(st.ToMove().List()[0])
		gm := ps[s].Choose(game.KnowledgeOf(st, game.Seat(s)))
		var step *Step
		if s == Seat {
			js, _ := g.MarshalMove(gm)
			var mv struct{ Card string }
			json.Unmarshal(js, &mv)
			c := readCard(mv.Card)
			cw := c.words()
			var w words
			switch {
			case len(trick) == 0:
				w = words{"You lead this trick: play " + cw.en + ". ", "Vous ouvrez ce pli : jouez " + cw.fr + ". "}
				if c.n <= 4 {
					w.en += "A low card rarely wins a trick, and the winner takes the trick's points."
					w.fr += "Une petite carte gagne rarement un pli, et c'est le gagnant qui ramasse ses points."
				} else {
					w.en += "The highest card of the suit led wins the trick and takes its points."
					w.fr += "La plus forte carte de la couleur demandée gagne le pli et en ramasse les points."
				}
			case c.suit == trick[0].suit:
				follows++
				high := trick[0]
				for _, x := range trick {
					if x.suit == high.suit && x.n > high.n {
						high = x
					}
				}
				w = words{fmt.Sprintf("%s led %s: you must follow suit when you can. Play %s: ", capital(seatWords(trickBy[0]).en), suitEN[c.suit], cw.en),
					fmt.Sprintf("%s a entamé à %s : vous devez fournir la couleur si vous le pouvez. Jouez %s : ", seatWords(trickBy[0]).fr, suitFR[c.suit], cw.fr)}
				if c.n > high.n {
					w.en += "it is the highest so far, so unless someone plays higher, the trick and its points are yours."
					w.fr += "c'est la plus forte pour l'instant : sauf si quelqu'un monte, le pli et ses points sont pour vous."
				} else {
					w.en += fmt.Sprintf("lower than %s, it does not win the trick.", high.words().en)
					w.fr += fmt.Sprintf("plus faible que %s, elle ne gagne pas le pli.", high.words().fr)
				}
			default:
				w = words{fmt.Sprintf("You have no %s: you may play any card, and it cannot win the trick. Play %s: ", suitEN[trick[0].suit], cw.en),
					fmt.Sprintf("Vous n'avez pas de %s : vous pouvez jouer n'importe quelle carte, et elle ne peut pas gagner le pli. Jouez %s : ", suitFR[trick[0].suit], cw.fr)}
				switch p := c.points(pap); {
				case p == 40:
					dumps++
					w.en += "the Papayoo! Its 40 points go to whoever wins this trick."
					w.fr += "le Papayoo ! Ses 40 points iront à qui gagne ce pli."
				case p > 0:
					dumps++
					w.en += fmt.Sprintf("its %d points go to the trick's winner, not to you.", p)
					w.fr += fmt.Sprintf("ses %d points iront au gagnant du pli, pas à vous.", p)
				case c.n >= 6:
					w.en += "it scores nothing, and a high card could win you a trick later."
					w.fr += "elle ne vaut rien, et une forte carte pourrait vous faire gagner un pli plus tard."
				default:
					w.en += "it scores nothing for anyone."
					w.fr += "elle ne rapporte de points à personne."
				}
			}
			step = &Step{Point: fmt.Sprintf(`#hand [data-card="%s"]`, c.name), Text: words{context.en + w.en, context.fr + w.fr}.text()}
			context = words{}
		}
		if err := st.Apply(game.Seat(s), gm, &log); err != nil {
			t.Fatal(err)
		}
		add(s, gm, step)
		deliver()
		for _, e := range evs[seen:] {
			switch e.Type {
			case "play":
				trick, trickBy = append(trick, readCard(e.Card)), append(trickBy, e.Seat)
			case "trick":
				trick, trickBy = nil, nil
				p := 0
				if e.Points != nil {
					p = *e.Points
				}
				who := seatWords(e.Seat)
				if p > 0 {
					context = words{fmt.Sprintf("%s took the last trick and its %d points. ", capital(who.en), p), fmt.Sprintf("%s a pris le dernier pli et ses %d points. ", capital(who.fr), p)}
				} else {
					context = words{fmt.Sprintf("%s took the last trick, without points. ", capital(who.en)), fmt.Sprintf("%s a pris le dernier pli, sans points. ", capital(who.fr))}
				}
				if e.Seat == Seat {
					context = words{strings.Replace(context.en, "You took", "You took", 1), strings.Replace(context.fr, "Vous a pris", "Vous avez pris", 1)}
				}
			}
		}
		seen = len(evs)
	}
	res := st.Result()
	mine := res.RoundScores[Seat]
	for _, v := range res.RoundScores[1:] {
		if v <= mine {
			return nil, false
		}
	}
	if follows == 0 || dumps == 0 {
		return nil, false
	}
	end := words{
		fmt.Sprintf("The round is over. Each player scores the points of the cards they took: the Payoo cards their number, the Papayoo 40, 250 points in all. You took %d, the fewest: this round is yours. A game has as many rounds as players, each dealing once, and the lowest total wins. You now know every rule of Papayoo: play on against the bots, or start a real game.", mine),
		fmt.Sprintf("La manche est finie. Chacun marque les points des cartes ramassées : les Payoo leur numéro, le Papayoo 40, 250 points en tout. Vous en avez pris %d, le moins de tous : la manche est à vous. Une partie compte autant de manches que de joueurs, chacun distribuant une fois, et le plus petit total gagne. Vous connaissez maintenant toutes les règles de Papayoo : continuez contre les robots, ou lancez une vraie partie.", mine),
	}
	return &Script{Game: "papayoo", Players: players, Seed: seed, Moves: moves, End: end.text()}, true
}

func capital(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}

func mustJSON(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

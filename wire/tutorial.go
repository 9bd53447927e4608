package wire

// TypeTutorial tells a tutorial's player the step of the moment
// (Tutorial): sent to the player's seat alone, before each state.
const TypeTutorial = "tutorial"

// Tutorial is the step of a tutorial table (POST /api/tutorials/{game}),
// sent to the player's connections only, before each state message and
// on arrival. Its words are those of the step awaited now and never of a
// later one, so that they tell no card the seat has not seen.
type Tutorial struct {
	Type string `json:"type"` // "tutorial"
	Game string `json:"game"`
	// Step is the player's step awaited now (1..Of), or the last one
	// done while other seats play (Waiting) and once it is over (Done).
	Step int `json:"step"`
	Of   int `json:"of"`
	// Waiting: the script's next move is another seat's; Text is empty.
	Waiting bool `json:"waiting"`
	// Done: the script is played out; End is its summary. The match
	// goes on as an ordinary one against the bots.
	Done bool `json:"done"`
	// Text is the step's words by language ("en", "fr"); Point a CSS
	// selector of the game's screen, what the step is done with.
	Text  map[string]string `json:"text,omitempty"`
	Point string            `json:"point,omitempty"`
	End   map[string]string `json:"end,omitempty"`
}

// Kind is the message's type.
func (*Tutorial) Kind() string { return TypeTutorial }

package main

import (
	"encoding/json"
	"io"
	"os"

	"tapis/games"
	"tapis/replay"
)

// runReplay is `tapis replay FILE|-`: exit 0 with the output object for a
// valid script, whatever moves were refused; exit 2 with the reason on
// stderr for an invalid one.
func runReplay(args []string, stdout, stderr io.Writer) int {
	fl := flags("replay", `Plays the scripted game in FILE (- for standard input) and prints one JSON
object: the moves applied and refused, the scores and the full state
(docs/replay.md). Exit 0 for a valid script, whatever moves were refused;
2 for an invalid one, with the reason on standard error.`)
	if status, ok := parse(fl, args, stdout, stderr); !ok {
		return status
	}
	if fl.NArg() != 1 {
		fail(stderr, "replay", "want one FILE, or - for standard input")
		return 2
	}
	in := io.Reader(os.Stdin)
	if name := fl.Arg(0); name != "-" {
		f, err := os.Open(name)
		if err != nil {
			fail(stderr, "replay", "%v", err)
			return 2
		}
		defer f.Close()
		in = f
	}
	script, err := replay.Read(in)
	if err != nil {
		fail(stderr, "replay", "%v", err)
		return 2
	}
	out, err := replay.Run(script, games.Named)
	if err != nil {
		fail(stderr, "replay", "%v", err)
		return 2
	}
	enc := json.NewEncoder(stdout)
	enc.SetIndent("", "  ")
	if err := enc.Encode(out); err != nil {
		fail(stderr, "replay", "%v", err)
		return 1
	}
	return 0
}

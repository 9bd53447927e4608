package main

import (
	"encoding/json"
	"fmt"
	"io"
	"os"

	"tapis/games"
	"tapis/replay"
)

// runReplay is `tapis replay FILE|-`: exit 0 with the output object for a
// valid script, whatever moves were refused; exit 2 with the reason on
// stderr for an invalid one.
func runReplay(args []string, stdout, stderr io.Writer) int {
	if len(args) != 1 {
		fmt.Fprintln(stderr, "usage: tapis replay FILE|-")
		return 2
	}
	in := io.Reader(os.Stdin)
	if args[0] != "-" {
		f, err := os.Open(args[0])
		if err != nil {
			fmt.Fprintf(stderr, "tapis replay: %v\n", err)
			return 2
		}
		defer f.Close()
		in = f
	}
	script, err := replay.Read(in)
	if err != nil {
		fmt.Fprintf(stderr, "tapis replay: %v\n", err)
		return 2
	}
	out, err := replay.Run(script, games.Named)
	if err != nil {
		fmt.Fprintf(stderr, "tapis replay: %v\n", err)
		return 2
	}
	enc := json.NewEncoder(stdout)
	enc.SetIndent("", "  ")
	if err := enc.Encode(out); err != nil {
		fmt.Fprintf(stderr, "tapis replay: %v\n", err)
		return 1
	}
	return 0
}

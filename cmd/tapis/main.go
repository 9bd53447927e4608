// Command tapis is the one binary of Tapis: it serves the web table, plays
// scripted games, simulates games between bots, checks a database and
// measures a running server under load. `tapis help` lists the commands,
// `tapis help COMMAND` (or `tapis COMMAND -h`) tells one's flags.
//
//	tapis serve  [--addr :8080] [--db tapis.db|postgres://...] [--bot-delay 700ms] [--away 45s] [--metrics-addr 127.0.0.1:9090]
//	tapis sim    --game cabo --players 4 --bots heuristic,random,... --games N --seed S [--json]
//	tapis replay FILE|-
//	tapis check  [--db tapis.db|postgres://...]
//	tapis loadtest --url URL --game G --players P --tables N --think D --duration D [--bots LEVEL] [--json]
package main

import (
	"io"
	"os"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

// run runs the command args name and returns its exit status: 0 done, 1
// failed, 2 a bad command line.
func run(args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		usage(stderr)
		return 2
	}
	switch args[0] {
	case "help", "-h", "-help", "--help":
		return runHelp(args[1:], stdout, stderr)
	}
	c := lookup(args[0])
	if c == nil {
		fail(stderr, "", "unknown command %q", args[0])
		usage(stderr)
		return 2
	}
	return c.run(args[1:], stdout, stderr)
}

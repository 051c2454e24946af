// teamengine: chesspairing (tests/vendor/chesspairing, Apache-2.0) as
// tactus's tests run it, two ways:
//
//	teamengine validate FILE        the TRF-26 file tactus gives back, read by
//	                                chesspairing's reader and checked with its
//	                                validator's "standard" profile (as its
//	                                CLI's `validate`): exit 1 on any error.
//	teamengine pair FILE ROUNDS     the next round of a team event by its Team
//	                                Swiss (pairing/team, FIDE C.04.6), from a
//	                                team-level file (one 001 per team, each
//	                                round's match as a game): prints the
//	                                number of matches, then "first second"
//	                                team numbers a line, "team 0" a bye.
//
// Its CLI's `pair --team` pairs a file's individual records, and anchors
// the round to pair at the last one played (the lexicographic systems then
// skip that round's history), so the tests drive pairing/team themselves
// and pair the round after the last one in the file.
package main

import (
	"context"
	"fmt"
	"os"
	"strconv"

	"github.com/gnutterts/chesspairing/pairing/team"
	"github.com/gnutterts/chesspairing/trf"
)

func main() {
	if len(os.Args) < 3 {
		fail("usage: teamengine validate FILE | teamengine pair FILE ROUNDS")
	}
	f, err := os.Open(os.Args[2])
	if err != nil {
		fail(err.Error())
	}
	defer f.Close()
	doc, err := trf.Read(f)
	if err != nil {
		fail("cannot parse TRF: " + err.Error())
	}
	switch os.Args[1] {
	case "validate":
		bad := false
		for _, issue := range doc.Validate(trf.ValidatePairingEngine) {
			fmt.Printf("%s: %s: %s\n", issue.Severity, issue.Field, issue.Message)
			bad = bad || issue.Severity == trf.SeverityError
		}
		if bad {
			os.Exit(1)
		}
	case "pair":
		if len(os.Args) < 4 {
			fail("pair needs the number of rounds")
		}
		total, err := strconv.Atoi(os.Args[3])
		if err != nil {
			fail("rounds: " + err.Error())
		}
		state, err := doc.ToTournamentState()
		if err != nil {
			fail(err.Error())
		}
		// The round after the last one in the file, with all of them as
		// its history.
		state.CurrentRound = len(state.Rounds) + 1
		pairer := team.New(team.Options{TotalRounds: &total})
		result, err := pairer.Pair(context.Background(), state)
		if err != nil {
			fail(err.Error())
		}
		fmt.Println(len(result.Pairings) + len(result.Byes))
		for _, p := range result.Pairings {
			fmt.Printf("%s %s\n", p.WhiteID, p.BlackID)
		}
		for _, b := range result.Byes {
			fmt.Printf("%s 0\n", b.PlayerID)
		}
	default:
		fail("unknown command " + os.Args[1])
	}
}

func fail(why string) {
	fmt.Fprintln(os.Stderr, "teamengine:", why)
	os.Exit(2)
}

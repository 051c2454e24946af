"""Reads PGN files with python-chess, the reference reader tests/rules/pgn_corpus.rs
compares tactus with, and prints what it read as JSON: for every file given,
a list with one object per game (its headers, variant, start position,
main-line moves in UCI, clock comments and python-chess's errors)."""

import json
import sys

import chess
import chess.pgn


def game_json(game):
    board = game.board()
    out = {
        "headers": dict(game.headers),
        "chess960": game.headers.is_chess960(),
        "variant": board.uci_variant,
        "start_fen": board.fen(),
        "moves": [],
        "clocks": [],
        "errors": [str(e) for e in game.errors],
    }
    for node in game.mainline():
        out["moves"].append(board.uci(node.move))
        out["clocks"].append(node.clock())
        board.push(node.move)
    return out


def main():
    files = []
    for path in sys.argv[1:]:
        games = []
        # "utf-8-sig": as python-chess's documentation reads a file that may
        # start with a byte-order mark.
        with open(path, encoding="utf-8-sig") as pgn:
            while True:
                game = chess.pgn.read_game(pgn)
                if game is None:
                    break
                games.append(game_json(game))
        files.append({"file": path, "games": games})
    json.dump({"version": chess.__version__, "files": files}, sys.stdout)


if __name__ == "__main__":
    main()

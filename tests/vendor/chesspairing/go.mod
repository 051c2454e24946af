module github.com/gnutterts/chesspairing

go 1.25

module tactus.invalid/teamengine

go 1.25

require github.com/gnutterts/chesspairing v0.2.2

replace github.com/gnutterts/chesspairing => ../vendor/chesspairing

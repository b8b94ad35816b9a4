module github.com/toonstream/toon

go 1.23

package tokencount

// Byte-pair merging turns one piece of the pre-tokenizer into tokens. It
// starts from the piece's bytes and, while some pair of neighbouring parts
// joins into a token, joins the pair whose token has the lowest rank, the
// leftmost of equal pairs; the tokens are the parts left. A piece that is a
// token whole is that one token without merging, as tiktoken-go decides
// before it merges (merging does not always rebuild such a piece).
//
// Short pieces, nearly all of them in text, are merged by looking at every
// pair for each join, in arrays on the stack. Longer ones use a heap of
// the pairs ordered by (rank, position), so a piece of n bytes takes
// O(n log n) time and 20 bytes of memory a byte (merger); tiktoken-go's
// own loop takes O(n²).

// smallPiece is the longest piece merged by scanning.
const smallPiece = 64

// pieceTokens returns the number of tokens of piece, appending their ranks
// to *out when out is not nil.
func (v *vocab) pieceTokens(piece []byte, m *merger, out *[]uint32) int {
	if r := v.rank(piece); r != noRank {
		if out != nil {
			*out = append(*out, r)
		}
		return 1
	}
	if len(piece) <= smallPiece {
		return v.mergeSmall(piece, out)
	}
	return m.merge(v, piece, out)
}

// mergeSmall merges a piece of at most smallPiece bytes. start holds the
// offsets where the parts start, then len(piece); rank[k] is the rank of
// parts k and k+1 joined.
func (v *vocab) mergeSmall(piece []byte, out *[]uint32) int {
	var start [smallPiece + 1]int32
	var rank [smallPiece + 1]uint32
	k := len(piece) + 1 // number of offsets
	for i := 0; i < k; i++ {
		start[i] = int32(i)
	}
	for i := 0; i+2 < k; i++ {
		rank[i] = v.rank(piece[i : i+2])
	}
	rank[k-2] = noRank
	for k > 2 {
		best, at := noRank, -1
		for i := 0; i+2 < k; i++ {
			if rank[i] < best {
				best, at = rank[i], i
			}
		}
		if at < 0 {
			break
		}
		// Join parts at and at+1: offset at+1 goes.
		copy(start[at+1:k-1], start[at+2:k])
		copy(rank[at+1:k-1], rank[at+2:k])
		k--
		if at+2 < k {
			rank[at] = v.rank(piece[start[at]:start[at+2]])
		} else {
			rank[at] = noRank
		}
		if at > 0 {
			rank[at-1] = v.rank(piece[start[at-1]:start[at+1]])
		}
	}
	if out != nil {
		for i := 0; i+1 < k; i++ {
			*out = append(*out, v.rank(piece[start[i]:start[i+1]]))
		}
	}
	return k - 1
}

// merger holds the arrays of a long piece's merge, kept between pieces
// while they are small enough to keep (keepBytes).
type merger struct {
	next, prev []int32 // the parts as a list: each part is named by its first byte
	where      []int32 // where[p]: index in heap of the pair of part p and the next, or -1
	heap       []uint64
}

// keepBytes is the longest piece whose merge arrays a merger keeps.
const keepBytes = 64 << 10

// merge merges a long piece with the heap.
func (m *merger) merge(v *vocab, piece []byte, out *[]uint32) int {
	n := len(piece)
	if cap(m.next) < n {
		m.next, m.prev, m.where = make([]int32, n), make([]int32, n), make([]int32, n)
		m.heap = make([]uint64, 0, n)
	}
	next, prev, where := m.next[:n], m.prev[:n], m.where[:n]
	h := m.heap[:0]
	for i := range next {
		next[i], prev[i], where[i] = int32(i+1), int32(i-1), -1
		if i+1 < n {
			if r := v.rank(piece[i : i+2]); r != noRank {
				where[i] = int32(len(h))
				h = append(h, pairKey(r, int32(i)))
			}
		}
	}
	hp := pairHeap{h: h, where: where}
	for i := len(h)/2 - 1; i >= 0; i-- {
		hp.down(i)
	}
	count := n
	for len(hp.h) > 0 {
		s := int32(hp.h[0])
		t := next[s]
		u := next[t]
		next[s] = u
		if int(u) < n {
			prev[u] = s
		}
		hp.remove(t)
		count--
		if int(u) < n {
			hp.set(s, v.rank(piece[s:next[u]]))
		} else {
			hp.set(s, noRank)
		}
		if p := prev[s]; p >= 0 {
			hp.set(p, v.rank(piece[p:u]))
		}
	}
	if out != nil {
		for s := int32(0); int(s) < n; s = next[s] {
			*out = append(*out, v.rank(piece[s:next[s]]))
		}
	}
	m.heap = hp.h
	if n > keepBytes {
		*m = merger{}
	}
	return count
}

// pairKey orders the pairs of a merge: by rank, then by position.
func pairKey(rank uint32, part int32) uint64 { return uint64(rank)<<32 | uint64(uint32(part)) }

// pairHeap is a binary heap of pair keys, with where tracking the index
// of each part's pair so that the pair can be moved or taken out when a
// merge beside it changes it.
type pairHeap struct {
	h     []uint64
	where []int32
}

func (hp *pairHeap) swap(i, j int) {
	h := hp.h
	h[i], h[j] = h[j], h[i]
	hp.where[int32(h[i])], hp.where[int32(h[j])] = int32(i), int32(j)
}

func (hp *pairHeap) up(i int) {
	h := hp.h
	for i > 0 {
		parent := (i - 1) / 2
		if h[i] >= h[parent] {
			return
		}
		hp.swap(i, parent)
		i = parent
	}
}

func (hp *pairHeap) down(i int) {
	h := hp.h
	n := len(h)
	for {
		l := 2*i + 1
		if l >= n {
			return
		}
		c := l
		if r := l + 1; r < n && h[r] < h[l] {
			c = r
		}
		if h[c] >= h[i] {
			return
		}
		hp.swap(i, c)
		i = c
	}
}

// remove takes part p's pair out of the heap if it is there.
func (hp *pairHeap) remove(p int32) {
	i := int(hp.where[p])
	if i < 0 {
		return
	}
	hp.where[p] = -1
	last := len(hp.h) - 1
	if i != last {
		hp.h[i] = hp.h[last]
		hp.where[int32(hp.h[i])] = int32(i)
	}
	hp.h = hp.h[:last]
	if i != last {
		hp.down(i)
		hp.up(i)
	}
}

// set gives part p's pair the rank r, noRank taking it out of the heap.
func (hp *pairHeap) set(p int32, r uint32) {
	if r == noRank {
		hp.remove(p)
		return
	}
	k := pairKey(r, p)
	i := int(hp.where[p])
	if i < 0 {
		hp.where[p] = int32(len(hp.h))
		hp.h = append(hp.h, k)
		hp.up(len(hp.h) - 1)
		return
	}
	old := hp.h[i]
	hp.h[i] = k
	if k > old {
		hp.down(i)
	} else {
		hp.up(i)
	}
}

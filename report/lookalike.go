package report

import (
	"fmt"
	"strings"
)

// lookAlikes maps the common Cyrillic and Greek look-alikes of ASCII
// letters to the letter they imitate. Fullwidth forms (U+FF01..U+FF5E)
// are not listed: each is its ASCII character plus 0xFEE0 (see
// lookAlike). This is the one table of confusable characters.
var lookAlikes = map[rune]rune{
	// Cyrillic small letters.
	'а': 'a', 'с': 'c', 'ԁ': 'd', 'е': 'e', 'һ': 'h', 'і': 'i', 'ј': 'j',
	'ӏ': 'l', 'о': 'o', 'р': 'p', 'ԛ': 'q', 'ѕ': 's', 'ԝ': 'w', 'х': 'x',
	'у': 'y',
	// Cyrillic capital letters.
	'А': 'A', 'В': 'B', 'С': 'C', 'Е': 'E', 'Н': 'H', 'І': 'I', 'Ј': 'J',
	'К': 'K', 'М': 'M', 'О': 'O', 'Р': 'P', 'Ѕ': 'S', 'Т': 'T', 'Ԝ': 'W',
	'Х': 'X', 'Ү': 'Y',
	// Greek small letters.
	'α': 'a', 'ι': 'i', 'κ': 'k', 'ν': 'v', 'ο': 'o', 'ρ': 'p', 'υ': 'u',
	// Greek capital letters.
	'Α': 'A', 'Β': 'B', 'Ε': 'E', 'Ζ': 'Z', 'Η': 'H', 'Ι': 'I', 'Κ': 'K',
	'Μ': 'M', 'Ν': 'N', 'Ο': 'O', 'Ρ': 'P', 'Τ': 'T', 'Υ': 'Y', 'Χ': 'X',
}

// lookAlike returns the ASCII character r imitates, if r is in the table
// or a fullwidth form of a printable ASCII character.
func lookAlike(r rune) (rune, bool) {
	if r >= 0xFF01 && r <= 0xFF5E {
		return r - 0xFEE0, true
	}
	a, ok := lookAlikes[r]
	return a, ok
}

// foldLookAlikes replaces every look-alike character of s by the ASCII
// character it imitates.
func foldLookAlikes(s string) string {
	return strings.Map(func(r rune) rune {
		if a, ok := lookAlike(r); ok {
			return a
		}
		return r
	}, s)
}

// LookAlikeNote describes the look-alike characters of name, each once in
// order of first appearance, e.g. `"а" is U+0430, a non-ASCII
// look-alike of "a"`; "" when it has none.
func LookAlikeNote(name string) string {
	var parts []string
	seen := map[rune]bool{}
	for _, r := range name {
		a, ok := lookAlike(r)
		if !ok || seen[r] {
			continue
		}
		seen[r] = true
		parts = append(parts, fmt.Sprintf("%q is U+%04X, a non-ASCII look-alike of %q", string(r), r, string(a)))
	}
	if len(parts) == 0 {
		return ""
	}
	return strings.Join(parts, "; ")
}

package frontend

import (
	"errors"
	"fmt"
	"unicode/utf8"
)

// nameRule says what a name is, for CheckName's messages.
const nameRule = "(a name is a letter or _, then letters, digits, _ or .)"

// CheckName reports why s cannot be a name in a .bir file (a graph's,
// a buffer's or a node's): it is empty, holds a byte no name may hold
// there (a name is a letter or _, then letters, digits, _ or .), or is a
// keyword. Tools that write bundle IR (sdscgen synth) check the names
// they are given with it; the scanner's tables are the rule.
func CheckName(s string) error {
	if s == "" {
		return errors.New("a name cannot be empty " + nameRule)
	}
	for i := 0; i < len(s); i++ {
		if c := s[i]; i == 0 && class[c] != cIdent || !identPart[c] {
			r, _ := utf8.DecodeRuneInString(s[i:])
			ch := fmt.Sprintf("%q", r)
			if r == utf8.RuneError {
				ch = fmt.Sprintf(`'\x%02x'`, c)
			}
			return fmt.Errorf("%s is not a name: %s at byte %d %s", quoteText(s), ch, i+1, nameRule)
		}
	}
	if isKeyword(s) {
		return errors.New(keywordMsg(s) + " (see the keywords in docs/bundle-ir.md)")
	}
	return nil
}

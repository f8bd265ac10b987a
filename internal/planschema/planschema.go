// Package planschema validates plan JSON documents against
// docs/plan.schema.json with a JSON Schema 2020-12 validator, for tests:
// it reads the schema from the repository, next to this package's source.
package planschema

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"sync"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

// Path is the schema's file.
var Path = func() string {
	_, file, _, _ := runtime.Caller(0)
	return filepath.Join(filepath.Dir(file), "..", "..", "docs", "plan.schema.json")
}()

var (
	once   sync.Once
	schema *jsonschema.Schema
	err    error
)

// Schema returns the compiled schema.
func Schema() (*jsonschema.Schema, error) {
	once.Do(func() {
		var data []byte
		if data, err = os.ReadFile(Path); err != nil {
			return
		}
		var doc any
		if doc, err = jsonschema.UnmarshalJSON(bytes.NewReader(data)); err != nil {
			return
		}
		c := jsonschema.NewCompiler()
		c.DefaultDraft(jsonschema.Draft2020)
		if err = c.AddResource("plan.schema.json", doc); err != nil {
			return
		}
		schema, err = c.Compile("plan.schema.json")
	})
	return schema, err
}

// Validate checks one plan JSON document against the schema.
func Validate(plan []byte) error {
	s, err := Schema()
	if err != nil {
		return fmt.Errorf("plan schema: %w", err)
	}
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(plan))
	if err != nil {
		return fmt.Errorf("plan JSON: %w", err)
	}
	return s.Validate(doc)
}

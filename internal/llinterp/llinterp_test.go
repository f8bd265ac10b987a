package llinterp

import (
	"os"
	"os/exec"
	"strings"
	"testing"
)

// A loop with phis, a select, comparisons, casts and an aggregate return.
const loopIR = `
define { i64, i64 } @f(i64 %n, i64 %k) {
entry:
  br label %head
head:
  %i = phi i64 [ 0, %entry ], [ %i1, %body ]
  %s = phi i64 [ 0, %entry ], [ %s1, %body ]
  %c = icmp slt i64 %i, %n
  br i1 %c, label %body, label %exit
body:
  %m = mul i64 %i, %k
  %s1 = add i64 %s, %m
  %i1 = add i64 %i, 1
  br label %head
exit:
  %big = icmp sgt i64 %s, 100
  %v = select i1 %big, i64 100, i64 %s
  %t = trunc i64 %s to i8
  %z = zext i8 %t to i64
  %neg = sub i64 0, %z
  %q = sdiv i64 %neg, 2
  %r0 = insertvalue { i64, i64 } undef, i64 %v, 0
  %r1 = insertvalue { i64, i64 } %r0, i64 %q, 1
  %e = extractvalue { i64, i64 } %r1, 1
  %r2 = insertvalue { i64, i64 } %r1, i64 %e, 1
  ret { i64, i64 } %r2
}
`

func TestLoop(t *testing.T) {
	m, err := Parse("loop.ll", loopIR)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ n, k, v, q int64 }{
		{0, 5, 0, 0},
		{4, 3, 18, -9},    // 3*(0+1+2+3) = 18; -18/2
		{10, 7, 100, -29}, // 7*45 = 315 -> select 100; trunc to i8 = 59; -59/2 = -29
	} {
		v, err := m.Call("f", c.n, c.k)
		if err != nil {
			t.Fatal(err)
		}
		if len(v.Elems) != 2 || v.Elems[0].Int != c.v || v.Elems[1].Int != c.q {
			t.Errorf("f(%d, %d) = %+v, want {%d %d}", c.n, c.k, v, c.v, c.q)
		}
	}
	if _, err := m.Call("f", 1); err == nil {
		t.Error("wrong arity accepted")
	}
	if _, err := m.Call("g"); err == nil {
		t.Error("missing function accepted")
	}
}

func TestUnsupported(t *testing.T) {
	m, err := Parse("fp.ll", "define double @h(double %x) {\n  %y = fadd double %x, %x\n  ret double %y\n}\n")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := m.Call("h", 1); err == nil {
		t.Error("floating point accepted")
	}
}

// TestLoweredSCF runs a real mlir-opt lowering of an scf.for loop, so the
// branch/phi shapes that stock MLIR produces are covered too.
func TestLoweredSCF(t *testing.T) {
	opt, err1 := exec.LookPath("mlir-opt-16")
	tr, err2 := exec.LookPath("mlir-translate-16")
	if err1 != nil || err2 != nil {
		if os.Getenv("SDSCGEN_REQUIRE_MLIR") == "1" {
			t.Fatalf("MLIR tools missing: %v %v", err1, err2)
		}
		t.Skip("MLIR tools missing")
	}
	src := `func.func @sum(%n: index, %k: index) -> index {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %c0) -> (index) {
    %m = arith.muli %i, %k : index
    %a = arith.addi %acc, %m : index
    scf.yield %a : index
  }
  return %r : index
}
`
	lower := exec.Command(opt, "--convert-scf-to-cf", "--convert-arith-to-llvm", "--convert-func-to-llvm", "--reconcile-unrealized-casts")
	lower.Stdin = strings.NewReader(src)
	llvmDialect, err := lower.Output()
	if err != nil {
		t.Fatal(err)
	}
	translate := exec.Command(tr, "--opaque-pointers=0", "--mlir-to-llvmir")
	translate.Stdin = strings.NewReader(string(llvmDialect))
	ll, err := translate.Output()
	if err != nil {
		t.Fatal(err)
	}
	m, err := Parse("sum.ll", string(ll))
	if err != nil {
		t.Fatal(err)
	}
	for n := int64(0); n < 6; n++ {
		v, err := m.Call("sum", n, 5)
		if err != nil {
			t.Fatalf("%v\n%s", err, ll)
		}
		if want := 5 * n * (n - 1) / 2; v.Int != want {
			t.Errorf("sum(%d, 5) = %d, want %d", n, v.Int, want)
		}
	}
}

package shapes

import "math/rand/v2"

type FormCase struct{ Name string }

func genForm(r *rand.Rand, i int) *FormCase { return &FormCase{} }

package testplan

import (
	"bytes"
	"encoding/base64"
	"fmt"
	"image"
	"image/draw"
	"image/jpeg"
	"image/png"
	"os"
	"path/filepath"
	"strings"
)

// The reports carry their images inside them: report.html is one file to
// attach or open anywhere, and report.md renders in places that cannot
// reach the evidence folder (a CI job summary, a pull request comment),
// where a relative link shows a broken image.

// mdImageBudget bounds the images report.md carries, in bytes of base64:
// GitHub takes a job summary of up to 1 MiB, and the text needs room too.
// Images past it are linked by path instead.
const mdImageBudget = 640 << 10

// thumbWidth is the width report.md's images are scaled down to.
const thumbWidth = 480

// images reads a run's screenshots for the reports. A report is masked
// on its way to disk like every other, but its images are not text: each
// goes into the report as a placeholder (hold), and the placeholders are
// replaced after the masking (fill), so that no mask lands inside an
// image's bytes.
type images struct {
	dir   string            // the evidence folder
	files map[string][]byte // when set, the images by path, instead of dir's files
	held  []string
}

// read returns the file rel (relative to the evidence folder).
func (im *images) read(rel string) ([]byte, error) {
	if im.files != nil {
		if b, ok := im.files[rel]; ok {
			return b, nil
		}
		return nil, os.ErrNotExist
	}
	return os.ReadFile(filepath.Join(im.dir, filepath.FromSlash(rel)))
}

// hold returns a placeholder for uri that masking leaves alone; "" stays "".
func (im *images) hold(uri string) string {
	if uri == "" {
		return ""
	}
	im.held = append(im.held, uri)
	return fmt.Sprintf("waymark-image-%06d", len(im.held)-1)
}

// fill replaces the placeholders of text with their images.
func (im *images) fill(text string) string {
	if len(im.held) == 0 {
		return text
	}
	pairs := make([]string, 0, 2*len(im.held))
	for i, uri := range im.held {
		pairs = append(pairs, fmt.Sprintf("waymark-image-%06d", i), uri)
	}
	return strings.NewReplacer(pairs...).Replace(text)
}

// dataURI is the file rel (relative to the evidence folder) as a data:
// URI, as it is; "" when it cannot be read.
func (im *images) dataURI(rel string) string {
	b, err := im.read(rel)
	if err != nil {
		return ""
	}
	return "data:image/png;base64," + base64.StdEncoding.EncodeToString(b)
}

// thumbURI is the file rel scaled down to thumbWidth and encoded as JPEG,
// as a data: URI; "" when it cannot be read.
func (im *images) thumbURI(rel string) string {
	b, err := im.read(rel)
	if err != nil {
		return ""
	}
	src, err := png.Decode(bytes.NewReader(b))
	if err != nil {
		return ""
	}
	dst := scaleDown(src, thumbWidth)
	var out bytes.Buffer
	if err := jpeg.Encode(&out, dst, &jpeg.Options{Quality: 70}); err != nil {
		return ""
	}
	return "data:image/jpeg;base64," + base64.StdEncoding.EncodeToString(out.Bytes())
}

// scaleDown shrinks img to width w (keeping its shape) by averaging the
// source pixels under each target pixel; a narrower image is only copied.
func scaleDown(img image.Image, w int) *image.RGBA {
	b := img.Bounds()
	if b.Dx() <= w {
		dst := image.NewRGBA(image.Rect(0, 0, b.Dx(), b.Dy()))
		draw.Draw(dst, dst.Bounds(), img, b.Min, draw.Src)
		return dst
	}
	h := max(1, b.Dy()*w/b.Dx())
	src := image.NewRGBA(image.Rect(0, 0, b.Dx(), b.Dy()))
	draw.Draw(src, src.Bounds(), img, b.Min, draw.Src)
	dst := image.NewRGBA(image.Rect(0, 0, w, h))
	for y := range h {
		y0, y1 := y*b.Dy()/h, max(y*b.Dy()/h+1, (y+1)*b.Dy()/h)
		for x := range w {
			x0, x1 := x*b.Dx()/w, max(x*b.Dx()/w+1, (x+1)*b.Dx()/w)
			var r, g, bl, n int
			for sy := y0; sy < y1; sy++ {
				row := src.Pix[sy*src.Stride:]
				for sx := x0; sx < x1; sx++ {
					p := row[sx*4:]
					r, g, bl, n = r+int(p[0]), g+int(p[1]), bl+int(p[2]), n+1
				}
			}
			o := dst.Pix[y*dst.Stride+x*4:]
			o[0], o[1], o[2], o[3] = uint8(r/n), uint8(g/n), uint8(bl/n), 0xff
		}
	}
	return dst
}

// mdImages picks the images report.md carries inline, within
// mdImageBudget: the failures' first, then the rest in order. It returns
// the source of each image by its path; a path it leaves out is linked.
func mdImages(rep *Report, im *images) map[string]string {
	var first, rest []string
	for _, s := range rep.Scenarios {
		for _, st := range s.Steps {
			for _, p := range []string{st.Screenshot, st.Before} {
				switch {
				case p == "":
				case st.Status == StatusFailed:
					first = append(first, p)
				default:
					rest = append(rest, p)
				}
			}
		}
	}
	out := map[string]string{}
	used := 0
	for _, p := range append(first, rest...) {
		uri := im.thumbURI(p)
		if uri == "" || used+len(uri) > mdImageBudget {
			continue
		}
		used += len(uri)
		out[p] = im.hold(uri)
	}
	return out
}

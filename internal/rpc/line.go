package rpc

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"sync"
)

// ErrLineTooLong says a line was longer than the reader's or writer's
// maximum. A [Reader] that returned it is broken: the caller closes the
// connection, since the rest of that line cannot be framed.
var ErrLineTooLong = errors.New("rpc: line too long")

// ErrMalformed says a line is not a JSON object. The reader stays usable.
var ErrMalformed = errors.New("rpc: malformed line")

// keepBuf is the largest buffer a Reader or Writer keeps between lines; a
// screenshot's buffer is dropped once sent.
const keepBuf = 1 << 20

// Reader reads messages, one a line. It is not safe for concurrent use.
type Reader struct {
	br  *bufio.Reader
	max int
	buf []byte
	err error // sticky: ErrLineTooLong or a read error
}

// NewReader returns a reader of lines of at most max bytes (without the
// newline); max <= 0 means [MaxLineSize].
func NewReader(r io.Reader, max int) *Reader {
	if max <= 0 {
		max = MaxLineSize
	}
	return &Reader{br: bufio.NewReaderSize(r, 4<<10), max: max}
}

// Read reads the next message. A malformed line gives an error wrapping
// [ErrMalformed] or [ErrInvalid] and the next Read goes on with the next
// line; an over-long line gives [ErrLineTooLong] for good; the end of the
// stream is io.EOF (io.ErrUnexpectedEOF within a line).
func (r *Reader) Read() (*Message, error) {
	line, err := r.readLine()
	if err != nil {
		return nil, err
	}
	m := new(Message)
	if err := json.Unmarshal(line, m); err != nil {
		return nil, fmt.Errorf("%w (%d bytes): %v", ErrMalformed, len(line), err)
	}
	if _, err := m.Kind(); err != nil {
		return m, err
	}
	return m, nil
}

func (r *Reader) readLine() ([]byte, error) {
	if r.err != nil {
		return nil, r.err
	}
	if cap(r.buf) > keepBuf {
		r.buf = nil
	}
	r.buf = r.buf[:0]
	for {
		chunk, err := r.br.ReadSlice('\n')
		n := len(chunk)
		if err == nil {
			n-- // the newline
		}
		if len(r.buf)+n > r.max {
			r.err = fmt.Errorf("%w: over %d bytes", ErrLineTooLong, r.max)
			return nil, r.err
		}
		r.buf = append(r.buf, chunk...)
		switch {
		case err == nil:
			line := bytes.TrimRight(r.buf, "\r\n")
			if len(bytes.TrimSpace(line)) == 0 {
				r.buf = r.buf[:0]
				continue // blank lines are allowed, for people typing at socat
			}
			return line, nil
		case errors.Is(err, bufio.ErrBufferFull):
			continue
		case errors.Is(err, io.EOF) && len(r.buf) > 0:
			r.err = io.ErrUnexpectedEOF
		default:
			r.err = err
		}
		return nil, r.err
	}
}

// Writer writes messages, one a line. It is safe for concurrent use; each
// message goes out in one Write call.
type Writer struct {
	max int
	mu  sync.Mutex // guards the fields below
	w   io.Writer
	buf []byte
}

// NewWriter returns a writer of lines of at most max bytes; max <= 0 means
// [MaxLineSize].
func NewWriter(w io.Writer, max int) *Writer {
	if max <= 0 {
		max = MaxLineSize
	}
	return &Writer{w: w, max: max}
}

// Write sends m as one line. A message longer than the maximum is not sent:
// the error wraps [ErrLineTooLong].
func (w *Writer) Write(m *Message) error {
	w.mu.Lock()
	defer w.mu.Unlock()
	if cap(w.buf) > keepBuf {
		w.buf = nil
	}
	b, err := AppendMessage(w.buf[:0], m)
	if err != nil {
		return err
	}
	w.buf = b
	if len(b)-1 > w.max {
		return fmt.Errorf("%w: %d bytes, over %d", ErrLineTooLong, len(b)-1, w.max)
	}
	_, err = w.w.Write(b)
	return err
}

// AppendMessage appends m's line, newline included, to b. The raw fields
// (Params, Result, Event) are copied as they are when they hold no newline,
// which is the case for anything json.Marshal made; otherwise they are
// compacted, which also checks them. Encoding by hand keeps a 20 MB
// screenshot from being scanned once more by encoding/json.
func AppendMessage(b []byte, m *Message) ([]byte, error) {
	e := encoder{b: append(b, '{')}
	if m.V != "" {
		e.str("v", m.V)
	}
	if m.Hello != nil {
		e.value("hello", m.Hello)
	}
	if m.ID != 0 {
		e.key("id")
		e.b = strconv.AppendUint(e.b, m.ID, 10)
	}
	if m.Session != "" {
		e.str("session", m.Session)
	}
	if m.Method != "" {
		e.str("method", m.Method)
	}
	e.raw("params", m.Params)
	if m.Cancel {
		e.key("cancel")
		e.b = append(e.b, "true"...)
	}
	e.raw("result", m.Result)
	if m.Error != nil {
		e.value("error", m.Error)
	}
	e.raw("event", m.Event)
	if e.err != nil {
		return b, e.err
	}
	return append(e.b, '}', '\n'), nil
}

type encoder struct {
	b   []byte
	n   int
	err error
	tmp bytes.Buffer
}

func (e *encoder) key(k string) {
	if e.n > 0 {
		e.b = append(e.b, ',')
	}
	e.n++
	e.b = append(e.b, '"')
	e.b = append(e.b, k...) // keys are ours: plain ASCII
	e.b = append(e.b, '"', ':')
}

func (e *encoder) str(k, v string) { e.value(k, v) }

func (e *encoder) value(k string, v any) {
	data, err := json.Marshal(v)
	if err != nil {
		e.err = err
		return
	}
	e.key(k)
	e.b = append(e.b, data...)
}

func (e *encoder) raw(k string, v json.RawMessage) {
	if v == nil {
		return
	}
	if len(v) == 0 || bytes.IndexByte(v, '\n') >= 0 || bytes.IndexByte(v, '\r') >= 0 {
		e.tmp.Reset()
		if err := json.Compact(&e.tmp, v); err != nil {
			e.err = fmt.Errorf("rpc: %s: %w", k, err)
			return
		}
		v = e.tmp.Bytes()
	}
	e.key(k)
	e.b = append(e.b, v...)
}

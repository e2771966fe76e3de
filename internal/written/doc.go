// Package written reads values as pages and sheets write them: numbers
// ("£1,299.00", and "1.299,00 €" in a language that puts a comma before
// the decimals), dates ("1 Nov 2026", "06/24/2012", "3 hours ago") given
// in ISO 8601, and yes/no. It is the one owner of these readings: package
// recipe (lists in a page) and package sheet (tables in a spreadsheet)
// both call it. It imports nothing of waymark's but internal/lazyre, so
// any package may.
package written

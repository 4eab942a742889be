package caselib

import "hash/crc32"

// castagnoli is caselink's one CRC-32C table: the checksums of case spans
// (span.go), of the index cache file and of the library stamp
// (similarity/indexfile) all use it, through CRC and UpdateCRC.
var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// CRC returns the CRC-32C (Castagnoli) of b, the checksum every file
// caselink writes for itself carries.
func CRC(b []byte) uint32 { return crc32.Checksum(b, castagnoli) }

// UpdateCRC returns crc extended by b: CRC of a file written in parts.
func UpdateCRC(crc uint32, b []byte) uint32 { return crc32.Update(crc, castagnoli, b) }

// SPDX-License-Identifier: GPL-3.0-or-later
// Netpbm bitmaps, grey and colour images (PBM, PGM and PPM, netpbm.sourceforge.net/doc/pbm.html,
// pgm.html and ppm.html):
//
//   P5 | P2        magic: binary or plain (ASCII) grey map; P6 | P3: binary or plain pixmap;
//                  P4 | P1: packed or plain bitmap
//   width height   in pixels, each >= 1
//   maxval         the largest sample, 1 to 65535 (not in a bitmap)
//   raster         binary: one byte per sample (two, most significant first, when maxval >
//                  255), after exactly one whitespace byte; plain: decimal numbers; a packed
//                  bitmap: each row in whole bytes, most significant bit first; a plain one:
//                  the digits 0 and 1, whitespace between them optional
//
// with `#` comments in the header (to the end of the line). Samples are scaled to 0..255
// (round(v · 255 / maxval)); a bitmap's 1 (black) is 0 and its 0 (white) 255; PBM and PGM give
// one channel, PPM three. One image per file: bytes
// after the raster other than whitespace are an error, as are a short raster, a sample above
// maxval, and more than kMaxImagePixels pixels — a DataError naming the file, the line of the
// header (0 for the raster) and what was expected. Loaded through the format table
// (data_format.h) as DataKind::Image, so every family that reads images reads these too.
#pragma once

#include <string>
#include <string_view>

#include "data/data_format.h"
#include "data/image_format.h"

namespace cplab {

// Decodes the bytes of a PBM, PGM or PPM file (`sourceName` for messages).
Image decodeNetpbm(std::string_view bytes, const std::string& sourceName);
// Reads and decodes the file at `path`.
Image loadNetpbm(const std::string& path);

// The format table's sniff: 5 when the name ends in .pbm, .pgm, .ppm or .pnm, or the content
// starts with P1 to P6 and a whitespace byte.
int sniffNetpbm(const FilePrefix& prefix);

}  // namespace cplab

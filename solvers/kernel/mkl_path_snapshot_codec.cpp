// SPDX-License-Identifier: GPL-3.0-or-later
// The bytes of an MklPathSnapshot (mkl_path_snapshot_codec.h).
#include "mkl_path_snapshot_codec.h"

#include "kernel_snapshot_codec.h"

namespace cplab {

namespace {

void encodePicture(const MklPathPicture& picture, ByteWriter& out) {
    out.i32(picture.dimension);
    out.i32(picture.n);
    for (double v : {picture.x0, picture.y0, picture.dx, picture.dy, picture.x1, picture.y1})
        out.f64(v);
    out.doubles(picture.values);
    encodeContour(picture.zero, out);
}

std::shared_ptr<const MklPathPicture> decodePicture(ByteReader& in) {
    auto picture = std::make_shared<MklPathPicture>();
    picture->dimension = in.i32();
    picture->n = in.i32();
    for (double* v :
         {&picture->x0, &picture->y0, &picture->dx, &picture->dy, &picture->x1, &picture->y1})
        *v = in.f64();
    picture->values = in.doubles();
    decodeContour(in, picture->zero);
    const int d = picture->dimension;
    in.expect(d >= 0 && d <= 2 && picture->n >= 0, "a predictor picture of dimension " +
                                                       std::to_string(d) + " and size " +
                                                       std::to_string(picture->n));
    const auto n = static_cast<std::size_t>(std::max(picture->n, 0));
    in.expectSize(picture->values.size(),
                  d == 0   ? 0
                  : d == 1 ? n
                           : n * n,
                  "a predictor picture's values");
    return picture;
}

void checkSizes(ByteReader& in, const MklPathSnapshot& s, const MklPathSnapshot& base) {
    const std::size_t K = base.kernelLabels.size();
    in.expectSize(s.kernelLabels.size(), K, "the kernel labels");
    for (const Eigen::VectorXd* v : {&s.d, &s.eta, &s.eta0})
        in.expectSize(static_cast<std::size_t>(v->size()), K, "the kernel weights", true);
    if (!s.model || !s.model->train) return;
    const auto m = static_cast<std::size_t>(s.model->train->size());
    for (const auto& alpha : s.alphas)
        in.expectSize(static_cast<std::size_t>(alpha->size()), m, "a point's alpha");
}

}  // namespace

void encodeMklPathSnapshot(const MklPathSnapshot& s, ByteWriter& out) {
    out.strings(s.kernelLabels);
    out.vector(s.d);
    out.vector(s.eta);
    out.vector(s.eta0);
    for (double v : {s.lambda, s.lambda0, s.lambdaMin})
        out.f64(v);
    out.boolean(s.classification);
    out.count(s.alphas.size());
    for (const auto& alpha : s.alphas)
        out.vector(alpha ? *alpha : Eigen::VectorXd());
    out.count(s.pictures.size());
    for (const auto& picture : s.pictures)
        encodePicture(picture ? *picture : MklPathPicture(), out);
}

void decodeMklPathSnapshot(ByteReader& in, const MklPathSnapshot& base, MklPathSnapshot& s) {
    s.model = base.model;
    s.kernelLabels = in.strings();
    s.d = in.vector();
    s.eta = in.vector();
    s.eta0 = in.vector();
    for (double* v : {&s.lambda, &s.lambda0, &s.lambdaMin})
        *v = in.f64();
    s.classification = in.boolean();
    s.alphas.resize(in.count(8));
    for (auto& alpha : s.alphas)
        alpha = std::make_shared<const Eigen::VectorXd>(in.vector());
    s.pictures.resize(in.count(80));
    for (auto& picture : s.pictures)
        picture = decodePicture(in);
    if (in.ok()) checkSizes(in, s, base);
}

}  // namespace cplab

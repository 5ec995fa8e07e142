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

// How many leading items `list` shares (the same objects) with `previous`'s.
template <class Item>
std::size_t sharedPrefix(const std::vector<std::shared_ptr<const Item>>& list,
                         const std::vector<std::shared_ptr<const Item>>* previous) {
    std::size_t n = 0;
    while (previous && n < list.size() && n < previous->size() && list[n] &&
           list[n] == (*previous)[n])
        ++n;
    return n;
}

// The leading `shared` items of `previous`'s list (after checking it has them) and the rest
// read by `read`.
template <class Item, class Read>
void decodeList(ByteReader& in, const std::vector<std::shared_ptr<const Item>>* previous,
                std::size_t minItemBytes, Read read,
                std::vector<std::shared_ptr<const Item>>& list) {
    const std::size_t shared = in.count(1);
    const std::size_t available = previous ? previous->size() : 0;
    if (!in.expect(shared <= available, std::to_string(shared) +
                                            " points shared with the run's previous snapshot, "
                                            "which has " +
                                            std::to_string(available)))
        return;
    list.clear();
    if (previous)
        list.assign(previous->begin(), previous->begin() + static_cast<std::ptrdiff_t>(shared));
    const std::size_t rest = in.count(minItemBytes);
    for (std::size_t k = 0; k < rest && in.ok(); ++k)
        list.push_back(read());
}

}  // namespace

void encodeMklPathSnapshot(const MklPathSnapshot& s, const MklPathSnapshot* previous,
                           ByteWriter& out) {
    out.strings(s.kernelLabels);
    out.vector(s.d);
    out.vector(s.eta);
    out.vector(s.eta0);
    for (double v : {s.lambda, s.lambda0, s.lambdaMin})
        out.f64(v);
    out.boolean(s.classification);
    const std::size_t sharedAlphas = sharedPrefix(s.alphas, previous ? &previous->alphas : nullptr);
    out.count(sharedAlphas);
    out.count(s.alphas.size() - sharedAlphas);
    for (std::size_t p = sharedAlphas; p < s.alphas.size(); ++p)
        out.vector(s.alphas[p] ? *s.alphas[p] : Eigen::VectorXd());
    const std::size_t sharedPictures =
        sharedPrefix(s.pictures, previous ? &previous->pictures : nullptr);
    out.count(sharedPictures);
    out.count(s.pictures.size() - sharedPictures);
    for (std::size_t p = sharedPictures; p < s.pictures.size(); ++p)
        encodePicture(s.pictures[p] ? *s.pictures[p] : MklPathPicture(), out);
}

void decodeMklPathSnapshot(ByteReader& in, const MklPathSnapshot& base,
                           const MklPathSnapshot* previous, MklPathSnapshot& s) {
    s.model = base.model;
    s.kernelLabels = in.strings();
    s.d = in.vector();
    s.eta = in.vector();
    s.eta0 = in.vector();
    for (double* v : {&s.lambda, &s.lambda0, &s.lambdaMin})
        *v = in.f64();
    s.classification = in.boolean();
    decodeList(
        in, previous ? &previous->alphas : nullptr, 8,
        [&] { return std::make_shared<const Eigen::VectorXd>(in.vector()); }, s.alphas);
    decodeList(
        in, previous ? &previous->pictures : nullptr, 80, [&] { return decodePicture(in); },
        s.pictures);
    if (in.ok()) checkSizes(in, s, base);
}

}  // namespace cplab

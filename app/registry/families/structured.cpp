// SPDX-License-Identifier: GPL-3.0-or-later
#include "families/structured.h"

#include <algorithm>
#include <cmath>
#include <iostream>
#include <numeric>
#include <optional>
#include <stdexcept>

#include "builtin_datasets.h"
#include "core/communicator.h"
#include "data/portable_random.h"
#include "data/sequence_format.h"
#include "data/test_split.h"
#include "data/text_io.h"
#include "structured/chain_model_file.h"
#include "structured/frank_wolfe_ssvm.h"
#include "structured/n_slack_ssvm.h"
#include "structured/one_slack_ssvm.h"
#include "structured/online_mkl.h"
#include "structured/ssg_ssvm.h"
#include "structured/structured_snapshot_codec.h"

namespace cplab {

std::string StructuredData::details() const {
    if (!problem.train) return {};
    const SequenceData& train = problem.train->data();
    std::string text = train.name + ": " + std::to_string(train.size()) + " sequences, " +
                       std::to_string(train.tokenCount()) + " tokens, " +
                       std::to_string(train.labelCount()) + " labels, " +
                       std::to_string(train.dimension()) + " features";
    if (problem.test)
        text += "; test set " + std::to_string(problem.test->data().size()) + " sequences";
    const std::string warning = decodingCostWarning(*problem.train);
    if (!warning.empty()) text += "\n" + warning;
    return text;
}

SummaryFields StructuredData::summary() const {
    if (!problem.train) return {};
    SummaryFields fields = {
        {"sequences", static_cast<long long>(problem.train->data().size())},
        {"tokens", static_cast<long long>(problem.train->data().tokenCount())},
        {"labels", static_cast<long long>(problem.train->data().labelCount())},
        {"features", static_cast<long long>(problem.train->data().dimension())}};
    if (problem.test)
        fields.push_back({"test_sequences", static_cast<long long>(problem.test->data().size())});
    return fields;
}

namespace {

// Problem names are unique across families: the structured family's are "structured_<name>".
const std::string kStructuredPrefix = "structured_";

// The problem options: where the test words come from, and the chain model's settings.
struct StructuredProblemOptions {
    TestSplit split;
    int train_fold = 0;          // letter.data: train on this fold, test on the others (−1: no)
    bool normalize_loss = true;  // Hamming loss divided by the sequence length
    bool transitions = true;     // first-order transitions between neighbouring labels

    void visit(OptionVisitor& v) {
        split.visit(v, "letter.data or the generic sequence format");
        v.integer("train_fold", train_fold,
                  "letter.data without test file or fraction: train on this fold, test on the "
                  "others (the common OCR protocol: fold 0, 626 words); -1: no split");
        v.boolean("normalize_loss", normalize_loss,
                  "Hamming loss divided by the sequence length (every word weighs the same)");
        v.boolean("transitions", transitions,
                  "first-order transitions between neighbouring labels (false: each token "
                  "alone, multi-class)");
    }
    bool isValid(std::string* why) const {
        return split.isValid("structured problem", why) &&
               require(train_fold >= -1 && train_fold <= 1000, "structured problem", "train_fold",
                       train_fold, "must lie in [-1, 1000]", why);
    }
};

// The training and test sequences: the split's (a test file or a held-out fraction), else
// letter.data's fold `train_fold` against the others.
SequenceSets trainAndTest(SequenceData all, const StructuredProblemOptions& o) {
    if (!o.split.none() || o.train_fold < 0 || all.folds.empty())
        return splitSequences(std::move(all), o.split);
    auto [a, b] = all.splitByFold(o.train_fold);
    if (a.size() == 0)
        throw std::invalid_argument("'" + all.name + "' has no word in fold " +
                                    std::to_string(o.train_fold));
    SequenceSets sets;
    sets.train = std::make_shared<SequenceData>(std::move(a));
    if (b.size() > 0) sets.test = std::make_shared<SequenceData>(std::move(b));
    return sets;
}

// The problem from the sequences `all` (a file's, or a built-in's) and the options. Throws
// std::invalid_argument or DataError on bad data.
ProblemPtr makeStructuredProblem(SequenceData all, const StructuredProblemOptions& o,
                                 const ProblemInfo& info) {
    auto data = std::make_shared<StructuredData>();
    auto [train, test] = trainAndTest(std::move(all), o);
    if (train->size() == 0) throw std::invalid_argument("'" + train->name + "' holds no sequence");
    const ChainModelOptions model{o.normalize_loss, o.transitions};
    data->problem.train = std::make_shared<const ChainModel>(train, model);
    if (test) {
        auto testModel = std::make_shared<const ChainModel>(test, model);
        std::string reason;
        if (!sameLayout(*data->problem.train, *testModel, &reason))
            throw std::invalid_argument("the test sequences '" + test->name +
                                        "' do not fit the training sequences '" + train->name +
                                        "': " + reason);
        data->problem.test = std::move(testModel);
    }
    // Up front, before a solver's set-up decodes the data: the GUI logs details(), the
    // command line gets it on stderr here.
    const std::string warning = decodingCostWarning(*data->problem.train);
    if (!warning.empty()) std::cerr << warning << "\n";
    auto instance = std::make_shared<ProblemInstance>();
    instance->info = info;
    instance->info.dimension = data->problem.train->dimension();
    instance->data = std::move(data);
    return instance;
}

StructuredProblem problemOf(const StructuredData& data) {
    return data.problem;
}

// The chain model file of a run of S (nullopt for another type): its reported weights (those
// of the best P).
template <class S>
std::optional<std::string> chainModelText(const Solver& solver) {
    const auto* s = dynamic_cast<const S*>(&solver);
    if (!s) return std::nullopt;
    const ChainModel& model = s->model();
    ChainModelFile file;
    file.labelNames = model.data().labelNames;
    file.features = model.featureDimension();
    file.transitions = model.options().transitions;
    file.normalizeLoss = model.options().normalizeLoss;
    file.lambda = s->lambda();
    file.weights = s->bestWeights();
    return formatChainModel(file);
}

// What is solved (lambda; online MKL's kernels, regulariser and epochs) and, rarely touched,
// threads, seeds, how often the test error is evaluated and the cutting planes' QP.
const OptionGroups kStructuredGroups = {
    {"lambda", "kernels", "regulariser", "epochs"},
    {"threads", "seed", "eval_every", "inactive_limit", "max_planes", "qp_tolerance"}};

// The cutting-plane methods run over several processes, each decoding its share of the words.
const std::vector<SolverEntry> kStructuredSolvers = {
    solverEntry<BcfwOptions, BcfwSolver>(
        {.name = "bcfw",
         .title = "Block-coordinate Frank-Wolfe (BCFW)",
         .description =
             "The structural SVM dual by block-coordinate Frank-Wolfe (Lacoste-Julien et al. "
             "2013): per word one loss-augmented Viterbi decoding gives the Frank-Wolfe corner "
             "of its block, with an exact line search; one step is one pass over the words. "
             "Bounds: P(w) and D(alpha); their gap (the sum of the blocks' gaps) certifies "
             "P(w) - P*.",
         .groups = kStructuredGroups,
         .modelText = &chainModelText<BcfwSolver>},
        &problemOf),
    solverEntry<FrankWolfeSsvmOptions, FrankWolfeSsvmSolver>(
        {.name = "fw",
         .title = "Batch Frank-Wolfe on the dual",
         .description =
             "The structural SVM dual by batch Frank-Wolfe (Lacoste-Julien et al. 2013, Alg. "
             "2): one pass decodes every word at the same w, the corner of the whole product "
             "of simplices, and one exact line search moves all blocks together. Slower per "
             "pass than BCFW, which moves after every word. Bounds: P(w), D(alpha), their gap.",
         .groups = kStructuredGroups,
         .modelText = &chainModelText<FrankWolfeSsvmSolver>},
        &problemOf),
    solverEntry<SsgOptions, SsgSolver>(
        {.name = "ssg",
         .title = "Stochastic subgradient (Pegasos-style)",
         .description =
             "Stochastic subgradient on the primal (Ratliff et al. 2007; Shalev-Shwartz et al.): "
             "per word one loss-augmented decoding and a step 1/(lambda t), with uniform or "
             "weighted averaging of the iterates. No dual: P(w) only, and no certificate.",
         .groups = kStructuredGroups,
         .modelText = &chainModelText<SsgSolver>},
        &problemOf),
    solverEntry<OneSlackOptions, OneSlackSolver>(
        {.name = "oneslack",
         .title = "1-slack cutting planes (SVMstruct 3)",
         .description =
             "One joint cutting plane per pass (Joachims, Finley & Yu 2009): the structured "
             "risk's subgradient from all words' loss-augmented decodings, added to BMRM's "
             "plane set, whose small QP is re-solved warm; inactive planes are pruned. Bounds: "
             "P(w) and the QP's value (a lower bound).",
         .groups = kStructuredGroups,
         .distributed = Distributed::WholeData,
         .modelText = &chainModelText<OneSlackSolver>},
        &problemOf),
    solverEntry<NSlackOptions, NSlackSolver>(
        {.name = "nslack",
         .title = "n-slack cutting planes (Tsochantaridis et al. 2005)",
         .description =
             "A working set of most violated labelings per word: each pass adds the labelings "
             "violated by more than epsilon_constraint and re-solves the QP over all working "
             "sets by warm dual coordinate ascent. Bounds: P(w) and the working-set QP's dual.",
         .groups = kStructuredGroups,
         .distributed = Distributed::WholeData,
         .modelText = &chainModelText<NSlackSolver>},
        &problemOf),
    solverEntry<OnlineMklOptions, OnlineMklSolver>(
        {.name = "online_mkl",
         .title = "Online proximal MKL (Martins et al.)",
         .description =
             "Multiple kernel learning for the chain model, online (Martins et al. 2011, Alg. "
             "3): per word a loss-augmented decoding with every kernel group's scores, a "
             "subgradient step on every group, then the proximal step of the regulariser on "
             "the vector of group norms (squared l1: the Moreau projection of Alg. 2, which "
             "prunes groups); no inner batch SVM. One step = one chunk of words. Bound: the "
             "objective of the averaged model at the end of each epoch (no certificate).",
         .groups = kStructuredGroups},
        &problemOf),
};

// The demos, each with its story told in the caption bar (family.h, DemoBeat).
const std::vector<DemoInfo> kStructuredDemos = {
    {"ocr_race",
     "Structural SVM on handwritten words: five solvers raced",
     "The same words and lambda for BCFW, batch Frank-Wolfe, the 1-slack and n-slack "
     "cutting-plane methods and stochastic subgradient, against passes over the data: "
     "watch the gaps of the certified methods close and compare the test letter "
     "errors.",
     kStructuredPrefix + "ocr_words",
     // BCFW as in the BCFW paper's Figure 1 (its 2013 algorithm, not the defaults).
     {{"bcfw",
       {{"lambda", "0.01"},
        {"sampling", "permutation"},
        {"pairwise", "false"},
        {"cache", "0"},
        {"max_iterations", "20"}}},
      {"fw", {{"lambda", "0.01"}, {"max_iterations", "20"}}},
      {"oneslack", {{"lambda", "0.01"}, {"max_iterations", "20"}}},
      {"nslack", {{"lambda", "0.01"}, {"max_iterations", "20"}}},
      {"ssg", {{"lambda", "0.01"}, {"max_iterations", "20"}}}},
     {{0, "", "Five solvers, the same words and lambda: compare them per pass over the data."},
      {1, "",
       "BCFW, FW, 1-slack and n-slack certify a duality gap; SSG reports only the "
       "primal value."},
      {3, "", "BCFW updates one word at a time: its gap closes fastest per pass."},
      {8, "", "Gap and errors tab: every run's gap and test letter error."},
      {0, "finished", "Done: compare the gaps and the test errors of the five."}}},
    {"ocr_mkl",
     "Online MKL on handwritten words: which kernel wins",
     "Online proximal MKL (Martins et al.) with a linear, a quadratic and a Gaussian "
     "kernel on the letters' pixels, one step per chunk of words: watch the group "
     "weights settle over the epochs and the squared-l1 proximal step shrink the "
     "group norms by its threshold.",
     kStructuredPrefix + "ocr_words",
     {{"online_mkl", {{"lambda", "0.01"}, {"epochs", "10"}}}},
     {{0, "", "Online proximal MKL: a linear, a quadratic and a Gaussian kernel on the pixels."},
      {1, "", "One step per chunk of words: the group weights move."},
      {5, "", "The squared-l1 proximal step shrinks the group norms by its threshold."},
      {20, "", "Over the epochs the weights settle: which kernel wins?"},
      {0, "finished", "Done after 10 epochs: the group weights name the winning kernel."}}},
    {"ocr_bcfw",
     "Structural SVM on handwritten words: BCFW",
     "Taskar's OCR words (626 for training, 700 held out), a chain model of "
     "letters with transitions: BCFW steps through the words and the duality gap "
     "P(w) - D(alpha) closes. The first run samples words by their gaps (Osokin et al. "
     "2016) after two passes in a permutation; the second is the 2013 algorithm (a "
     "permutation per pass) with averaging.",
     kStructuredPrefix + "ocr_words",
     {{"bcfw",
       {{"lambda", "0.01"}, {"pairwise", "false"}, {"cache", "0"}, {"max_iterations", "30"}}},
      {"bcfw",
       {{"lambda", "0.01"},
        {"sampling", "permutation"},
        {"pairwise", "false"},
        {"cache", "0"},
        {"averaging", "true"},
        {"max_iterations", "30"}}}},
     {{0, "",
       "Two BCFW runs on Taskar's OCR words: gap sampling, and the 2013 algorithm "
       "averaged."},
      {1, "",
       "One step is n word steps: a loss-augmented Viterbi (or a cached decoding) gives "
       "a Frank-Wolfe corner."},
      {5, "",
       "The word gaps show which words are still far off: gap sampling visits those "
       "most."},
      {15, "",
       "Gap sampling visits the words of large gaps most; compare the two runs' gaps "
       "P(w) - D(alpha)."},
      {0, "finished", "Done: compare the two runs' gaps and test errors."}}},
};

class StructuredFamily final : public Family {
  public:
    StructuredFamily() {
        for (const auto& file : builtinSequenceFiles()) {
            addProblem({kStructuredPrefix + std::string(file.name),
                        {},
                        "handwritten words (Taskar's OCR), built-in",
                        "626 words of fold 0 for training and 700 other words for testing "
                        "(see resources/datasets/README.md); 16 x 8 pixel letters a-z.",
                        kOcrPixels});
        }
        addSolvers(kStructuredSolvers);
        addSnapshotCodec(
            snapshotCodec<StructuredSnapshot, encodeStructuredSnapshot, decodeStructuredSnapshot>(
                6, "structured"));
        addDemos(kStructuredDemos);
    }

    std::string name() const override { return "structured"; }
    std::string title() const override { return "Structural SVMs (sequence labelling)"; }
    BoundLabels boundLabels() const override {
        return {"upper bound U (primal P(w))", "lower bound L (dual D(alpha))"};
    }

    std::vector<OptionInfo> problemOptions() const override {
        return describeOptions<StructuredProblemOptions>();
    }

    ProblemPtr makeProblem(const std::string& name, const OptionValues& problemOptions,
                           std::string* why) const override {
        StructuredProblemOptions o;
        if (!assignOptions(o, problemOptions, why) || !o.isValid(why)) return nullptr;
        for (const auto& info : problems()) {
            if (info.name != name) continue;
            const BuiltinFile* file = nullptr;
            for (const auto& f : builtinSequenceFiles())
                if (kStructuredPrefix + std::string(f.name) == name) file = &f;
            if (!file) break;
            return refusingThrows(why, [&] {
                return makeStructuredProblem(
                    parseLetterData(file->bytes, "builtin:" + std::string(file->name)), o, info);
            });
        }
        if (why) *why = "unknown structured problem '" + name + "'";
        return nullptr;
    }

    std::vector<DataKind> dataKinds() const override { return {DataKind::Sequences}; }

    bool writesModels() const override { return true; }

    // The solvers that declare a chain model file (modelText): all but online_mkl.
    bool writeModel(const Solver& solver, const std::string& path,
                    std::string* why) const override {
        return refusingThrows(why, [&] {
            const std::optional<std::string> text = modelTextOf(solver);
            if (!text)
                throw std::invalid_argument("solver '" + solver.name() +
                                            "' has no chain model to write");
            writeOutputFile(path, *text);
            return true;
        });
    }

    int modelAffinity(const std::string& head) const override {
        return head.rfind("# cplab chain model", 0) == 0 ? 2 : 0;
    }

    // Labels every sequence of `dataPath` (letter.data or the generic format, all of it: no
    // fold split) with the model's Viterbi decoding; the predictions file has one label per
    // token and a blank line between sequences (the generic format's layout, labels only).
    std::optional<Prediction> predict(const std::string& modelPath, const std::string& dataPath,
                                      const std::string& outPath, std::string* why) const override {
        return refusingThrows(why, [&]() -> std::optional<Prediction> {
            const ChainModelFile model = parseChainModel(readInputFile(modelPath), modelPath);
            const SequenceData data = readSequences(sourceOfKind(dataPath, DataKind::Sequences));
            const ChainPrediction prediction = predictSequences(model, data);
            if (!outPath.empty()) {
                std::string text;
                for (int i = 0; i < data.size(); ++i) {
                    if (i > 0) text += '\n';
                    for (int k = data.first(i); k < data.first(i) + data.length(i); ++k)
                        text += model.labelNames[static_cast<std::size_t>(
                                    prediction.labels[static_cast<std::size_t>(k)])] +
                                "\n";
                }
                writeOutputFile(outPath, text);
            }
            return Prediction{data.size(),
                              "error",
                              prediction.tokenError,
                              {{"word_error", prediction.sequenceError},
                               {"tokens", static_cast<double>(data.tokenCount())}}};
        });
    }

    // Every process reads the whole file; each oracle pass decodes this process's share of the
    // words (structured/oracle_pass.h).
    ProblemPtr sharedPassesProblem(const ProblemInstance& problem,
                                   std::shared_ptr<Communicator> communicator) const override {
        const auto* data = problem.as<StructuredData>();
        if (!data) return nullptr;
        auto shared = std::make_shared<StructuredData>(*data);
        shared->problem.communicator = std::move(communicator);
        auto instance = std::make_shared<ProblemInstance>(problem);
        instance->data = std::move(shared);
        return instance;
    }

    ProblemPtr loadFile(const DataSource& source, const OptionValues& problemOptions,
                        std::string* why) const override {
        StructuredProblemOptions o;
        if (!assignOptions(o, problemOptions, why) || !o.isValid(why)) return nullptr;
        return refusingThrows(why, [&] {
            SequenceData all = readSequences(source);
            const ProblemInfo info{all.name, "structured",
                                   std::to_string(all.size()) + " sequences from " + source.path,
                                   "Sequences loaded from " + source.path + ".", 0};
            return makeStructuredProblem(std::move(all), o, info);
        });
    }
};

}  // namespace

const Family& structuredFamily() {
    static const StructuredFamily family;
    return family;
}

}  // namespace cplab

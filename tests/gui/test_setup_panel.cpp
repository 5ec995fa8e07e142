// SPDX-License-Identifier: GPL-3.0-or-later
// The set-up panel (app/gui/setup_panel.h, option_form.h) as a room uses it: the options form
// shows what a run really uses (the linear solvers' C and lambda were shown as 0 while the run
// used C = 1), and the mouse wheel over the panel scrolls it instead of changing the spin box
// or list under the pointer (the test fraction went to 0.10); a clicked field takes the wheel.

#include <QComboBox>
#include <QDoubleSpinBox>
#include <QLineEdit>
#include <QScrollArea>
#include <QScrollBar>
#include <QWheelEvent>
#include <QtTest>

#include "gui_wait.h"
#include "main_window.h"
#include "main_window_parts.h"
#include "option_form.h"
#include "registry.h"
#include "run.h"
#include "run_controller.h"

using cplab::MainWindow;
using cplab::testing::waitFor;

namespace {

// One notch of the wheel (down: toward the user) over the middle of `w`; whether `w` took it.
// (The window system's wheel events go on to the parents of a widget that ignores them, which
// is what scrolls the panel; an event sent here would not, so the test sends the next one to
// the panel's viewport as Qt would.)
bool wheel(QWidget* w, bool down = true) {
    const QPointF at(w->width() / 2.0, w->height() / 2.0);
    QWheelEvent event(at, w->mapToGlobal(at), QPoint(), QPoint(0, down ? -120 : 120), Qt::NoButton,
                      Qt::NoModifier, Qt::NoScrollPhase, false);
    QApplication::sendEvent(w, &event);
    return event.isAccepted();
}

}  // namespace

class TestSetupPanel : public QObject {
    Q_OBJECT
  private slots:
    void optionFormShowsWhatTheRunUses() {
        MainWindow w;
        w.show();
        QVERIFY(w.loadDemo("ocas_vs_bmrm"));
        auto* solver = w.findChild<QComboBox*>("solverCombo");
        solver->setCurrentIndex(solver->findData("bmrm"));
        auto* form = w.findChild<cplab::OptionForm*>("optionForm");
        form->setValues({});
        auto* c = qobject_cast<QLineEdit*>(form->field("C"));
        auto* lambda = qobject_cast<QLineEdit*>(form->field("lambda"));
        QVERIFY(c && lambda);
        // Not "0": empty, saying what the run uses.
        QCOMPARE(c->text(), QString());
        QVERIFY2(c->placeholderText().contains("C = 1"), qPrintable(c->placeholderText()));
        QCOMPARE(lambda->text(), QString());
        QVERIFY2(lambda->placeholderText().contains("from C"),
                 qPrintable(lambda->placeholderText()));
        QVERIFY(form->changedValues().empty());
        QCOMPARE(form->values().at("C"), std::string("0"));  // the solver's "unset"
        // Typed and erased again: still unset, not a typed 0.
        QTest::keyClicks(c, "5");
        QCOMPARE(form->changedValues().at("C"), std::string("5"));
        QTest::keyClick(c, Qt::Key_Backspace);
        QVERIFY(form->changedValues().empty());
        // A run's own C is shown as it is.
        form->setValues({{"C", "10"}});
        QCOMPARE(c->text(), QString("10"));
        // Other defaults are shown as they are (tol_rel's 0 means off, and says so).
        auto* epsilon = qobject_cast<QLineEdit*>(form->field("epsilon"));
        QVERIFY(epsilon && !epsilon->text().isEmpty());
    }

    void wheelScrollsThePanelNotItsFields() {
        MainWindow w;
        w.resize(1280, 720);
        w.show();
        QVERIFY(w.loadDemo("ocas_vs_bmrm"));
        cplab::testing::drawPending(w);
        auto* scroll = w.findChild<QScrollArea*>("setupScroll");
        QVERIFY(scroll);
        QScrollBar* bar = scroll->verticalScrollBar();
        QVERIFY2(bar->maximum() > 0, "the set-up panel scrolls at 1280x720");
        bar->setValue(0);
        // The test fraction of the problem controls, and the solver's list.
        QDoubleSpinBox* fraction = nullptr;
        for (auto* spin : scroll->widget()->findChildren<QDoubleSpinBox*>())
            if (spin->isVisible()) fraction = spin;
        QVERIFY(fraction);
        const double before = fraction->value();
        auto* solver = w.findChild<QComboBox*>("solverCombo");
        const int chosen = solver->currentIndex();
        w.activateWindow();
        QVERIFY(QTest::qWaitForWindowActive(&w));
        scroll->setFocus();
        QVERIFY(!fraction->hasFocus());
        // Unfocused, the fields leave the wheel to the panel (up: the fraction could grow).
        QVERIFY(!wheel(fraction, false));
        QCOMPARE(fraction->value(), before);
        QVERIFY(!wheel(solver, false));
        QVERIFY(!wheel(solver));
        QCOMPARE(solver->currentIndex(), chosen);
        wheel(scroll->viewport());
        QVERIFY2(bar->value() > 0, "the panel scrolled");
        // Clicked (focused), the field takes the wheel.
        QVERIFY(fraction->focusPolicy() == Qt::StrongFocus);
        fraction->setFocus();
        QVERIFY(waitFor([&] { return fraction->hasFocus(); }, 2000));
        wheel(fraction, false);
        QVERIFY(fraction->value() > before);
    }
};

QTEST_MAIN(TestSetupPanel)
#include "test_setup_panel.moc"

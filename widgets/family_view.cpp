#include "family_view.h"

#include "plot_style.h"

namespace cplab::widgets {

bool FamilyView::exportImage(const QString& path, QString* why) {
    return exportPlot(plot(), path, why);
}

}  // namespace cplab::widgets

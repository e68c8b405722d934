// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "startcheck.h"

#include <QWidget>

class QLabel;
class QPushButton;

namespace gpudesk {

// The submit check's verdict where the user types: starts (on which nodes), waits (for what) or
// never (why), each reason with its fix; the split that fits offered as one click.
class VerdictPanel : public QWidget
{
    Q_OBJECT
public:
    explicit VerdictPanel(QWidget *parent = nullptr);
    void showChecking();
    void showVerdict(const StartVerdict &verdict);
    void showError(const QString &message);
    QString summaryText() const;
    QString reasonsText() const;
    QPushButton *splitButton() const { return m_split; }

signals:
    // "Run it as `nodes` × `gpus`": the form switches to a distributed job of that shape.
    void splitRequested(int nodes, int gpusPerNode);

private:
    QLabel *m_summary;
    QLabel *m_reasons;
    QPushButton *m_split;
    int m_splitNodes = 0;
    int m_splitGpus = 0;
};

} // namespace gpudesk

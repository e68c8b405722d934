// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QWidget>

class QLabel;
class QPushButton;

namespace gpudesk {

// What a first start without a kubeconfig shows instead of empty pages: where gpudesk looked
// for one (and why it could not use what it found), a button to pick a file, and how to try
// gpudesk without a cluster. The choice goes out as kubeconfigChosen.
class WelcomePanel : public QWidget
{
    Q_OBJECT
public:
    explicit WelcomePanel(QWidget *parent = nullptr);
    // The files looked at and what went wrong with them (the kubeconfig loader's words).
    void setProblem(const QStringList &looked, const QString &error);
    QPushButton *chooseButton() const { return m_choose; }
    QString text() const;
    // The file dialog that picks a kubeconfig (this panel's button, File › Open kubeconfig…).
    static QString askForKubeconfig(QWidget *parent);

signals:
    void kubeconfigChosen(const QString &path);

private:
    QLabel *m_where;
    QLabel *m_error;
    QPushButton *m_choose;
};

} // namespace gpudesk

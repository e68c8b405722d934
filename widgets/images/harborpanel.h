// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QWidget>

class QCheckBox;
class QLabel;
class QPushButton;

namespace gpudesk {

class ImagesService;

// What a registry's Harbor adds to the Images page: its version, each project's storage against
// its quota (nearly full ones marked), the untagged artifacts its garbage collection can delete,
// and the garbage collection itself (planned as an operation: Harbor's dry run first). Hidden
// for a registry that is no Harbor.
class HarborPanel : public QWidget
{
    Q_OBJECT
public:
    explicit HarborPanel(ImagesService *service, QWidget *parent = nullptr);

    // After a read, or while one runs (`busy`): shown, filled and enabled as the read says.
    void refresh(bool busy);
    QLabel *text() const { return m_text; }
    QPushButton *collectButton() const { return m_collect; }
    QCheckBox *deleteUntagged() const { return m_untagged; }

    // A project at or above this share of its quota is marked.
    static constexpr double NearlyFull = 0.9;

signals:
    void collectRequested(bool deleteUntagged);

private:
    ImagesService *m_service;
    QLabel *m_text;
    QCheckBox *m_untagged;
    QPushButton *m_collect;
};

} // namespace gpudesk

// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "objectref.h"

#include <QPointer>
#include <QWidget>

class QCheckBox;
class QComboBox;
class QLabel;
class QLineEdit;
class QListView;
class QSpinBox;

namespace gpudesk {

class KubeClient;
class LogDownload;
class LogModel;
class LogStream;

// A pod's log: follow, tail, container and pod pickers, previous container, timestamps, search
// with highlighting and next / previous, wrap, autoscroll that pauses while the user reads
// higher up, copy, and download of the whole log from the API.
class LogView : public QWidget
{
    Q_OBJECT
public:
    LogView(KubeClient *client, const ObjectRef &ref, QWidget *parent = nullptr);
    LogModel *model() const { return m_model; }
    QListView *view() const { return m_view; }
    void restart();

private:
    void findNext(bool forward);
    void copySelection();
    void download();
    void setWrap(bool wrap);

    KubeClient *m_client;
    ObjectRef m_ref;
    LogModel *m_model;
    LogStream *m_stream = nullptr;
    QPointer<LogDownload> m_download;
    QListView *m_view;
    QComboBox *m_pod;
    QComboBox *m_container;
    QCheckBox *m_follow;
    QCheckBox *m_previous;
    QCheckBox *m_timestamps;
    QCheckBox *m_wrap;
    QSpinBox *m_tail;
    QLineEdit *m_search;
    QLabel *m_matches;
    QLabel *m_state;
    bool m_atBottom = true;
};

} // namespace gpudesk

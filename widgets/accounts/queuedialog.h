// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "queuerules.h"

#include <QDialog>

class QCheckBox;
class QComboBox;
class QDialogButtonBox;
class QLabel;
class QLineEdit;
class QSpinBox;

namespace gpudesk {

class ClusterStore;

// A VC's form, new or edited: weight, reclaimable, parent, and capability / deserved /
// guarantee for GPUs, CPU and memory. Checked as it is typed against the rules Volcano's webhook
// misses (QueueRules), with the effect on the VC's jobs said before anything is planned.
class QueueDialog : public QDialog
{
    Q_OBJECT
public:
    // `name` "" for a new VC.
    QueueDialog(const ClusterStore *store, const QString &name, QWidget *parent = nullptr);
    QueueSpec spec() const;
    bool creating() const { return m_creating; }
    QLineEdit *amount(const QString &list, const QString &resource) const;
    QLineEdit *nameEdit() const { return m_name; }
    QLabel *errors() const { return m_errors; }
    QLabel *effects() const { return m_effects; }
    bool canPlan() const;

private:
    void check();

    const ClusterStore *m_store;
    bool m_creating;
    QueueSpec m_original;
    QLineEdit *m_name;
    QComboBox *m_parent;
    QSpinBox *m_weight;
    QCheckBox *m_reclaimable;
    QList<QLineEdit *> m_amounts; // property "list" (capability…) and "resource"
    QLabel *m_errors;
    QLabel *m_warnings;
    QLabel *m_effects;
    QDialogButtonBox *m_buttons;
};

} // namespace gpudesk

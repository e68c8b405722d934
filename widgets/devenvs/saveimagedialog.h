// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "saveimageplanner.h"

#include <QDialog>

class QComboBox;
class QDialogButtonBox;
class QLabel;
class QLineEdit;

namespace gpudesk {

// Where a dev environment's container goes as an image: the registry (those the cluster pulls
// from first), the repository and tag (the owner's own and the date to start with), and the
// credentials to push with — left empty, those docker's configuration has for the registry.
// The reference is shown whole as it is typed and checked; the password is kept nowhere.
class SaveImageDialog : public QDialog
{
    Q_OBJECT
public:
    // `base` holds the pod's fields (SaveImageRequest's); `registries` to offer.
    SaveImageDialog(const SaveImageRequest &base, const QStringList &registries,
                    QWidget *parent = nullptr);

    SaveImageRequest request() const;
    QString reference() const;
    QLineEdit *repositoryEdit() const { return m_repository; }
    QLineEdit *tagEdit() const { return m_tag; }
    QLineEdit *userEdit() const { return m_user; }
    QLineEdit *passwordEdit() const { return m_password; }
    QComboBox *registryBox() const { return m_registry; }
    QLabel *problem() const { return m_problem; }

private:
    void check();

    SaveImageRequest m_base;
    QComboBox *m_registry;
    QLineEdit *m_repository;
    QLineEdit *m_tag;
    QLineEdit *m_user;
    QLineEdit *m_password;
    QLabel *m_reference;
    QLabel *m_problem;
    QDialogButtonBox *m_buttons;
};

} // namespace gpudesk

// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "devenvspec.h"

#include <QDialog>
#include <QPointer>
#include <QTimer>

class QCheckBox;
class QComboBox;
class QDialogButtonBox;
class QLabel;
class QLineEdit;
class QPlainTextEdit;
class QSpinBox;

namespace gpudesk {

class ClusterStore;
class ImagesService;

// The form for a new dev environment: name, image, GPUs (and which model), CPU, memory, shared
// memory, home volume, other volumes, VC, environment variables and the services the image
// runs. Checked as it is typed; OK only when it can be asked for.
class DevEnvDialog : public QDialog
{
    Q_OBJECT
public:
    DevEnvDialog(const ClusterStore *store, const QString &ns, QWidget *parent = nullptr);
    DevEnvSpec spec() const;
    // Sizes the image typed against the admin's limit for huge images, asked of its registry.
    void setImages(ImagesService *images);
    QLabel *imageSize() const { return m_imageSize; }
    QLineEdit *nameEdit() const { return m_name; }
    QComboBox *imageBox() const { return m_image; }
    QSpinBox *gpusBox() const { return m_gpus; }
    QLineEdit *shmEdit() const { return m_shm; }
    QLabel *problems() const { return m_problems; }
    QDialogButtonBox *buttons() const { return m_buttons; }

private:
    void check();
    void lookUpSize();

    const ClusterStore *m_store;
    QLineEdit *m_name;
    QComboBox *m_ns;
    QComboBox *m_image;
    QSpinBox *m_gpus;
    QComboBox *m_gpuModel;
    QLineEdit *m_cpu;
    QLineEdit *m_memory;
    QLineEdit *m_shm;
    QLineEdit *m_home;
    QLineEdit *m_homePath;
    QLineEdit *m_mounts;
    QComboBox *m_vc;
    QPlainTextEdit *m_env;
    QList<QCheckBox *> m_services;
    QLabel *m_problems;
    QLabel *m_imageSize;
    ImagesService *m_images = nullptr;
    QTimer m_sizeDelay;
    QPointer<QObject> m_sizeAsk; // the question in flight; replaced, its answer is dropped
    QDialogButtonBox *m_buttons;
};

} // namespace gpudesk

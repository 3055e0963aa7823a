/// Public keys made once with `openssl genpkey … | openssl pkey -pubout` (an RSA-8192 key takes
/// about a minute to generate here, too long for a test run). The tests derive the raw inputs
/// and the expected pins from them with the openssl CLI at test time.
enum SPKIVectors {
    static let keys: [(name: String, type: String, pem: String)] = [
        (
            "rsa-1024", "rsa",
            """
            -----BEGIN PUBLIC KEY-----
            MIGfMA0GCSqGSIb3DQEBAQUAA4GNADCBiQKBgQDWAs13zNHPhJ4Qwn5Rd0BVHcWo
            jLPRl/6O6+m38ch5R4o7PwVP5WcGu5SLnDYl35RB07w3ptUrr87DNIATW1OtTjzl
            G4e2ntQpnRhIVn6PiEdJrJgUJSpwGjx7xCBW/lZHUchXorFAPqSCoYw5nNWsYUjq
            DaF3YvkRr4mQB0IaOQIDAQAB
            -----END PUBLIC KEY-----
            """
        ),
        (
            "rsa-2048", "rsa",
            """
            -----BEGIN PUBLIC KEY-----
            MIIBIjANBgkqhkiG9w0BAQEFAAOCAQ8AMIIBCgKCAQEA6ZyHvbjt3mARD/U9vXAv
            URvXh6LOV6vnMT9ELIrGmw9t+nJEAhajh1iQVDBYABp4CckPEh27qtFVbOwxSmpM
            IRfKRNnHWQckEX6KY0Qa63lRv3tJPG8nrTahdjq6gFfZ/wRT2SpklUob5hwvBCPt
            Bkqt3AT1A6RRt5J2JgatWbxltfKQTvVNDYIQ1SDkwdfnYJRWaILlelAGhSF4A1X2
            QAa2H/ho2Jxa9+Eq5ZJQDZW4IxZ/QGwEUzRqmmHfGADAubitL6egw3WLyVxjd1zz
            rKN1cj/sa77gDT84+BNOdATiiau1Gk1B3to/ZKeGMs+phAXuIuDJyKEttMKyeYRX
            2QIDAQAB
            -----END PUBLIC KEY-----
            """
        ),
        (
            "rsa-2056", "rsa",
            """
            -----BEGIN PUBLIC KEY-----
            MIIBIzANBgkqhkiG9w0BAQEFAAOCARAAMIIBCwKCAQIApBZ8SyE6KkxzraGUt9Rv
            2D6peYKZSFKA5ec8ZZ8WIRmwhJb8o1Ot9ISkwnqPEXORIrBq1fuS9Q7jIAAd6zBD
            Mjhi0/x5fMAenPKCMvLMSG9EPLjgda4xrk1h82DNZ3869aulaZwfQ85nCUJUtpK+
            BMU0KQCiu1ZIMPFbCY0AB9kcTx+slaLTsFpGWFtrjroZq2rwjzmi+8Rb9kxlxw8C
            rpieXgvBPTV7mNpCLMBYL6Yegb6NL9qqjqSTzJ0Rib4xyo4rICCynUyqB8bYTMhc
            c7seLnvYVHVpYVvMYCSyi2IPozaVw9xB2U9jorg/NKbOn8fWBMsSCsaAdKNEyHDA
            CeECAwEAAQ==
            -----END PUBLIC KEY-----
            """
        ),
        (
            "rsa-3072", "rsa",
            """
            -----BEGIN PUBLIC KEY-----
            MIIBojANBgkqhkiG9w0BAQEFAAOCAY8AMIIBigKCAYEAsW07rqxC0+QpZ2BaW56a
            UAWeZT0rI2faG4KVfF7WpAINIQB3w4A16ieXpc94BtPLVcstbhnXiHzRWrCPhuzi
            N98dEX1V5WCy4VvxwxjqvFKKxK6+ZFjTvZWY8uYmNL2p5vZoTty1qyH/nICMAJgT
            glmtbLWoMycujsDoJEVgLuOPZFmjsMUlS+Bs51Pv1siZ0NoMnRE5wUL+Xe3Lmreh
            vR8riBuxB7UdLuzqzbcwUycz3qP6EkP2yOLFJM9sUXEQNxynaIqDcffk/lm0ij3r
            WdB7r/QeUj6KsHxTjkvuBOJpOPbVflEMOUCWiOVU4UOlAMRrPPiP8TCxQRP0dAcr
            AZ28AQQUMgwm6flQDiDV+KPsHBrbHzEroQjusU3NkY4YNpvdLnIa3+LImR63OQKh
            rJ0AURDFVwIm/4BP3jKFChS7XGmO8vx4Y5tKBjI2j6e20KnTP7RtAolQYlHD6EZE
            Q4komDe/CKjEXGOy8eGeqlqwV+8stPgPXpo2FvQdpkY9AgMBAAE=
            -----END PUBLIC KEY-----
            """
        ),
        (
            "rsa-4096", "rsa",
            """
            -----BEGIN PUBLIC KEY-----
            MIICIjANBgkqhkiG9w0BAQEFAAOCAg8AMIICCgKCAgEAxyshXYDebYCV3bSAsDYD
            osTtHx84gn31wQX7LrnqshK2g02KtlfMFvnrRz8aDSGP++dy9mUbJfHPyh/BmV3d
            BZURh4+Zjddo5FdsJN0VQi+N2kfUxV8O/q7wVX7Eja8CzHeCphboRgtIGvixAmnS
            zWnQ5TrcPOmUqOZNp7t9Jpk12rbNWHC6LrfwXVqzewBvTlw5v7a8Ia/f0CzJljw7
            rWGXlFDkCVvATgD4PLeV+BxzRIYp129fIdDuJt0Nz024nS/+u5WPhNV+8FBo7JMe
            eQq1uyDmw7KdLguKC0f2MVxmw8x7t65oQSJwEdJOHNJvqJ4ry9vJOdBBfxFf/6Ow
            SF3DaCGwrKW4Rb4Y9+wBi6JHiJv4NNK1Z/Z09f5rOI5OEFUc6dfIg88g+1CNu4/m
            rEuf2RKoHa1w9qhRUR3z1M+Qmzne7dWzu868EEficv2NB/mqzMSUE9smtVJ3lYAn
            muo6j/7dIcTHt9QG9eH8okHjtKUWAGLb4umzbW0KY8QWQy7alxO/SxjvBsIsYSHy
            HZV0kYczAc3JbYwbXG3KTlMqHTj90BFczeISSk8GUj69w1bbV/jMQxGaMB+Q8Pnf
            /PSSV1bCsyEz6X4wXaFfMnIOwHi62ETfKk/9bi6fojdFLlKd9+i+zxCX6kbhUHVh
            hon2muPT/QhD8kBTdtCstq0CAwEAAQ==
            -----END PUBLIC KEY-----
            """
        ),
        (
            "rsa-8192", "rsa",
            """
            -----BEGIN PUBLIC KEY-----
            MIIEIjANBgkqhkiG9w0BAQEFAAOCBA8AMIIECgKCBAEAo7TL7DMTKDt78Cu/QgIC
            3XFZ0FOazVl07Pvz0+8MevX3Ma5Ak27G5fNG0W9DxvGVCrax7ls0YhfbQPe2dWds
            T9l2YUX/ajMaw3TvLrEsWJat/SanZFWALjAyywqmqvAKg29e9reNQ94627fMs19Z
            6FtLAl8CQ/XGHaKGexT0Q4laINXYZqThYNZ6vJL6NuggU57fD98HySaWNUjuZuvt
            WPGMFfP6Ekp1PYSYRKaMU2ITxCHXavtKpTUudjYto0SZF+z26QtFuW8R2pWKmWqr
            sBQVSuEvZ21ct6ojFlc1r6tLanuEU9dZcf6iPxbRKUkxOY/dvq/mL0O6DaUSV9QU
            7/Ok/iZtDwE2NFSiU1ej51q/89Wef6ZkynMVE7oV6rapMlsYarVu27/MQvOTDwHD
            dqQHkHuEopgNZOu2SJrn7FObBm/byxBsgCDuAmZ/XzzFzyUegygZBshK2Lin06xM
            GhL52CvQB5tyfbAATWHXjxfLJDFv7jZL2C78cJU1r/JVe4RsGAlwdU0fr7iG1yiq
            tASQkTiaM1we3pIwCznGDogp+AqP6lKfv20nHjwwCAsOMkyJX47Q5sW4qTCCL268
            nsFKTxUUfwBjdSuiQEuDwZ9XmPGeyALCtgeQaM+svIGvaiD55f88UJUbVOHXSgbA
            atnVm+nd4UddB3mtzxIBrf3cnLfB7kjF5XZyHSoEWPbpGf7f3V1R6nSrxxamLu9n
            LejS2wiHsOOr24xow64J2ZZFq+PyjUFv7FCaI5CiASXcxuJDA5JfduBlsB+e3sUC
            RZS8KJ0SN//m64B/XetIt84Azk6uHyU5EG/M8FB4yGrzdXKsAcWGVwvXlZYupndj
            idSv3/8vL03e3lqKv3+uczUAqeJfDQ1ziX0oowPk5+pffEskQzk3C+vjRN+JE3rZ
            BN4LQlPlsSU1tx3Zcr3ptKyEBU+/ddHjX+OgLVn5/nu4zoIhr7bkvm4IeiKTIUf3
            RA+Ln2Tt+iwtNlrGBXNT5UqUbUK/PiGv4Mj6y1TPMC9YNe48KkVi86JIwtPo836P
            K2WUKJOrva8ZLW/AnOmBbaF+m6jWepaBse4FW12nuO1PCZL8GjFfx0XRa1epSeB2
            MtAaHoA2gjGlldNcORSY/eNW8lBSvFvvBMJPIEFMkWBnNGF0uMU9K4d04BS4UeYG
            wn1dULmVUayoEMkaI8Gko185fLtuZ02oYfhoNDlat9B4TQAWfRi6CYjkdKGyS+rp
            Cqdw75A7qZWXiAez8GfPY2fD+3tAe3om4w9g7hiJXPtSYH/V1aHwAtXv9RgPnrGb
            UXfu1KHv/0OWbR4AsIaMlFoudFpv+U9zEmFlGdPisMyuPwZNw7W2EARuLht/7N1N
            lQIDAQAB
            -----END PUBLIC KEY-----
            """
        ),
        (
            "ec-P-256", "ecP256",
            """
            -----BEGIN PUBLIC KEY-----
            MFkwEwYHKoZIzj0CAQYIKoZIzj0DAQcDQgAETB3CyVytVKC5ItYgIZHs84pjhwDw
            5xfR6SkMz/LhySrKp/R+c51uiKiDA58bvjazlAi02D1mlYqp4+3ySrrJ7Q==
            -----END PUBLIC KEY-----
            """
        ),
        (
            "ec-P-384", "ecP384",
            """
            -----BEGIN PUBLIC KEY-----
            MHYwEAYHKoZIzj0CAQYFK4EEACIDYgAEBHIvkS8ztlbn/lRK4CcQdWhd70Mfcm3q
            W8cqwIG95PfOCzpiHx0HK64NplfGmw4gDdruNybvp1B4aRpZUhs2VhzzUSEpI3Ww
            8TtfejZHN5OjUFi4p/B3VBwVblEep0sW
            -----END PUBLIC KEY-----
            """
        ),
        (
            "ec-P-521", "ecP521",
            """
            -----BEGIN PUBLIC KEY-----
            MIGbMBAGByqGSM49AgEGBSuBBAAjA4GGAAQAYW7x14tRn98YllfyqY5AZbDJpCrV
            w+btCphn4wlIaOlVqlhEAIlLl4l0j9eK6mR3eby6MgnPmMJCPQkoRUg21RsAt0Tk
            c7ptN4A8zCvjGfqQ5RzNTY5BKHEdVc3aHGnYdzdQtOs6dvcoIjXHXDbw3IKyuzfi
            xSnp57QVqIxNQfIeLh4=
            -----END PUBLIC KEY-----
            """
        ),
    ]
}

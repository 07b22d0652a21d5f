/*
 * The wallet's extension ids, which native host manifests name. Chromium
 * derives an unpacked extension's id from its path unless the manifest
 * carries a `key`: the build pins this public key (wxt.config.ts), so every
 * unpacked copy is the same extension to the host manifest. A store copy
 * gets the store's id: `stipendex-proxy install --chrome-extension-id <id>`.
 */

/** SubjectPublicKeyInfo (DER, base64) of an RSA key that exists only to fix the id. */
export const CHROMIUM_MANIFEST_KEY =
  "MIIBIjANBgkqhkiG9w0BAQEFAAOCAQ8AMIIBCgKCAQEAyB4BsCktUZVfwmWAspab58hpI/wFvUPTJjoTYqCQZCqaSTOuC1bKjXS9LFRFdpwIPjxTh//j8vTJB0LgHA18y+Nf12wtnpob7LmHNjVRmkY27wjtdLpUs8+zcVW8C3IEAhdd79jbfbYEc1vk7g4b+7BrzpH3GEXFd7173NJS+j94l6/XwOHW85Dc27HA3S4ybf4NBEU5HRvBeBwFDX8cPsIn0LMvrFsVs/KGv2QAbaLynPPMFLW9bU8XIcGk10AMSUwkGiZJlujWm4biN0l6UsTbgMxoiwLwEMJBisSykrtQEVLARAEJIZdWpzxo5ulVgNpK8SW9WXt7zxyAdKHfUQIDAQAB";

/** The id Chromium gives an extension with CHROMIUM_MANIFEST_KEY (SHA-256 of the key, hex 0-f as a-p). */
export const CHROMIUM_EXTENSION_ID = "dileibimnnhhambghmahidbaomafbjkb";

/** The Firefox add-on id (`browser_specific_settings.gecko.id`). */
export const GECKO_ID = "wallet@stipendex.dev";

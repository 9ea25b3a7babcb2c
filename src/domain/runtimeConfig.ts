/**
 * The empty runtime-configuration element every page ships with; the portal server
 * replaces it with the real hosts as it serves the page (no extra round trip).
 */
export const CONFIG_ELEMENT_ID = "runtime-config";
export const CONFIG_PLACEHOLDER = `<script type="application/json" id="${CONFIG_ELEMENT_ID}">{}</script>`;

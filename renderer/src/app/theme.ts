import { createTheme } from '@mui/material/styles';

export const theme = createTheme({
  palette: {
    mode: 'light',
    primary: { main: '#0b6e69' },
    secondary: { main: '#3d4f9f' },
    background: { default: '#f5f7f7' },
    // Darker than MUI's own blue and orange, so white text on an info or warning chip reads at
    // 4.5:1 or more (6.0:1 and 5.1:1).
    info: { main: '#0267a6' },
    warning: { main: '#b35300' },
  },
  shape: { borderRadius: 8 },
  typography: {
    fontFamily: 'system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif',
    h1: { fontSize: '1.6rem', fontWeight: 600 },
    h2: { fontSize: '1.25rem', fontWeight: 600 },
    h3: { fontSize: '1.05rem', fontWeight: 600 },
  },
  components: {
    MuiButtonBase: { defaultProps: { disableRipple: false } },
    // Sentence case, as the words are written: easier to read than capitals, and a toolbar of them
    // fits on one line at 1280 pixels.
    MuiButton: {
      defaultProps: { variant: 'contained', disableElevation: true },
      styleOverrides: { root: { textTransform: 'none' } },
    },
    // A focus ring people can see on every control, not only the browser default.
    MuiCssBaseline: {
      styleOverrides: {
        // MUI's buttons take the browser's outline away and show a faint tint instead: the class
        // MUI sets on a control focused from the keyboard puts the ring back, filled buttons too.
        '*:focus-visible, .MuiButtonBase-root.Mui-focusVisible': {
          outline: '3px solid #f2a900',
          outlineOffset: '2px',
        },
        // A view's heading takes focus when the person arrives in it (so a screen reader says where
        // they are); it is not a control, so it shows no ring.
        'h1[tabindex="-1"]:focus': { outline: 'none' },
        // The fixed app bar never covers what has focus: scrolling into view leaves room for it.
        html: { scrollPaddingTop: '88px', scrollPaddingBottom: '16px' },
        '@media (prefers-reduced-motion: reduce)': {
          '*, *::before, *::after': {
            animationDuration: '0.01ms !important',
            animationIterationCount: '1 !important',
            transitionDuration: '0.01ms !important',
            scrollBehavior: 'auto !important',
          },
        },
        // Windows High Contrast and other forced colours: backgrounds go, so edges and system
        // colours carry what tints carried.
        '@media (forced-colors: active)': {
          '*:focus-visible, .MuiButtonBase-root.Mui-focusVisible': { outline: '3px solid Highlight' },
          '.MuiButtonBase-root.MuiButton-contained, .MuiChip-root.MuiChip-filled, .MuiLinearProgress-root.MuiLinearProgress-root':
            { border: '1px solid ButtonText' },
          '.MuiLinearProgress-bar': { backgroundColor: 'Highlight', forcedColorAdjust: 'none' },
        },
        '.skip-link': {
          position: 'absolute',
          left: '-9999px',
          top: 0,
          zIndex: 2000,
          padding: '8px 12px',
          background: '#fff',
        },
        '.skip-link:focus': { left: '8px', top: '8px' },
        // Printing (or saving as PDF) the month-end report prints the report alone.
        '@media print': {
          'header, nav, .skip-link': { display: 'none !important' },
          'main > div > *:not(.month-report)': { display: 'none !important' },
          main: { marginLeft: '0 !important', paddingTop: '0 !important' },
        },
        '.visually-hidden': {
          position: 'absolute',
          width: '1px',
          height: '1px',
          overflow: 'hidden',
          clip: 'rect(0 0 0 0)',
          whiteSpace: 'nowrap',
        },
      },
    },
  },
});
